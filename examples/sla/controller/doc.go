// Package controller is the SLA operator: it measures the availability of
// the service of each SLAContract with a PromQL query and moves the contract
// through the lifecycle generated from the `state` tag on
// SLAContractStatus.Phase (see ../api/v1alpha1/docs).
//
// # Guards
//
// Every transition is fired through its generated typed method
// (ActivateWith, DegradeWith, RecoverWith, BreachWith, ResolveWith), and each
// is guarded; the guards are methods of [Guards]:
//
//   - Healthy (pending -> active): the latest evaluation is not below the
//     degrade threshold;
//   - DegradeHeld (active -> degraded): availability has been below
//     DegradeBelowPercent for at least DegradeForSeconds;
//   - RecoverHeld (degraded -> active): at or above RecoverAtPercent for at
//     least RecoverForSeconds;
//   - BreachHeld (degraded -> breached): below BreachBelowPercent for at
//     least BreachForSeconds;
//   - Acknowledged (breached -> resolved): the customer set
//     spec.acknowledgement.
//
// How long a threshold has held comes from the data, not from the operator's
// memory: each evaluation runs a range query over the longest threshold
// duration, at the contract's interval, ending at the evaluation time, and
// [Observe] walks back from the end while the condition holds (a missing
// point breaks the run). Evaluation times are the clock's time truncated to
// a multiple of the interval, as Prometheus evaluates rules, so every
// evaluation sees the same grid of points and a since-timestamp does not
// move between evaluations. The result is the status' since-timestamps, and the
// guards compare them with the clock. So an operator restart loses nothing,
// and a threshold of 2 minutes holds at exactly 2 minutes. Availability is
// compared as a ratio with percent/100, so 95 means 0.95 exactly as
// Prometheus prints it.
//
// # Time
//
// The operator's time is a [Clock]: Now is the evaluation time sent to
// Prometheus, and Until says how long to wait in real time for a time of
// that clock. Requeueing comes from the nearest deadline of a threshold that
// is running (its since + duration), or the operator's poll interval when
// that is sooner, rounded up to the contract's grid; a breached or resolved
// contract waits for a change of its spec.
//
// # Failures and effects
//
// When Prometheus is unreachable, answers with an error, or has no data, the
// phase and the since-timestamps stay as they are and the MetricsAvailable
// condition says why (reasons from package metrics). Entering breached
// records a BreachRecord with the compensation from the contract's policy
// ([Compensation]) and emits a Warning Event; every transition emits an
// Event once its status is stored.
package controller
