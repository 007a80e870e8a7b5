package gateway

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"

	"sync"
	"time"
)

// Config tunes the simulated gateway.
type Config struct {
	// Latency is how long each call takes; a call whose context ends first
	// returns the context's error and has no effect.
	Latency time.Duration
	// FailureRate is the share of calls, in [0, 1], that fail transiently:
	// half of them before the call takes effect, half after it (the reply
	// is lost, the effect stays).
	FailureRate float64
	// SettlementDeclineRate is the share of settlements, in [0, 1], that
	// the clearing bounces with a *Declined error.
	SettlementDeclineRate float64
	// DeclineAbove declines authorizations of more minor units than this
	// (0: no limit).
	DeclineAbove int64
	// Seed varies which calls fail; the same seed fails the same calls.
	Seed uint64
}

// ErrUnavailable is the simulated gateway's transient failure.
var ErrUnavailable = errors.New("gateway unavailable (simulated)")

// Op is an effect the simulated gateway applied.
type Op struct {
	Kind   string // authorize, capture, settle, refund, void
	Key    string
	ID     string // the authorization, charge or refund created or acted on
	Amount int64
}

// Simulated is an in-process gateway. Whether a call fails depends only on
// the seed, the key and how often the key was called, so a run repeats.
type Simulated struct {
	cfg Config

	mu      sync.Mutex
	calls   map[string]int   // calls per key
	results map[string]reply // the first successful reply per key
	applied []Op
	auths   map[string]string // authorization ID by authorize key
	voided  map[string]bool   // released authorizations
	next    int
}

type reply struct {
	id  string
	err error
}

// NewSimulated returns a simulated gateway.
func NewSimulated(cfg Config) *Simulated {
	return &Simulated{cfg: cfg, calls: map[string]int{}, results: map[string]reply{},
		auths: map[string]string{}, voided: map[string]bool{}}
}

// Applied returns the effects applied so far, in order.
func (s *Simulated) Applied() []Op {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Op(nil), s.applied...)
}

// Calls returns how often key was called.
func (s *Simulated) Calls(key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[key]
}

// Authorize implements Gateway.
func (s *Simulated) Authorize(ctx context.Context, r Request) (string, error) {
	return s.do(ctx, "authorize", r, func() (string, error) {
		if s.cfg.DeclineAbove > 0 && r.Amount > s.cfg.DeclineAbove {
			return "", &Declined{Code: "limit_exceeded", Message: fmt.Sprintf("%d is above the limit %d", r.Amount, s.cfg.DeclineAbove)}
		}
		id := s.newID("auth")
		s.auths[r.Key] = id
		return id, nil
	})
}

// Capture implements Gateway.
func (s *Simulated) Capture(ctx context.Context, r Request) (string, error) {
	return s.do(ctx, "capture", r, func() (string, error) {
		if r.ID == "" || s.voided[r.ID] {
			return "", &Declined{Code: "no_authorization", Message: "nothing to capture for " + r.ID}
		}
		return s.newID("ch"), nil
	})
}

// Settle implements Gateway.
func (s *Simulated) Settle(ctx context.Context, r Request) error {
	_, err := s.do(ctx, "settle", r, func() (string, error) {
		if s.chance("decline", r.Key, 0) < s.cfg.SettlementDeclineRate {
			return "", &Declined{Code: "clearing_bounced", Message: "the clearing bounced charge " + r.ID}
		}
		return r.ID, nil
	})
	return err
}

// Refund implements Gateway.
func (s *Simulated) Refund(ctx context.Context, r Request) (string, error) {
	return s.do(ctx, "refund", r, func() (string, error) { return s.newID("re"), nil })
}

// Void implements Gateway.
func (s *Simulated) Void(ctx context.Context, r Request) error {
	_, err := s.do(ctx, "void", r, func() (string, error) {
		id := r.ID
		if id == "" {
			id = s.auths[r.AuthorizeKey]
		}
		if id != "" {
			s.voided[id] = true
		}
		return id, nil
	})
	return err
}

// do runs one call: latency, an injected failure before or after the
// effect, and the effect at most once per key.
func (s *Simulated) do(ctx context.Context, kind string, r Request, effect func() (string, error)) (string, error) {
	if r.Key == "" {
		return "", &Declined{Code: "no_key", Message: "an idempotency key is required"}
	}
	if err := s.wait(ctx); err != nil {
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.calls[r.Key]
	s.calls[r.Key] = n + 1
	fail := s.chance("fail", r.Key, n) < s.cfg.FailureRate
	lostReply := fail && s.chance("when", r.Key, n) < 0.5
	if fail && !lostReply {
		return "", ErrUnavailable
	}
	rep, seen := s.results[r.Key]
	if !seen {
		id, err := effect()
		rep = reply{id, err}
		s.results[r.Key] = rep
		if err == nil {
			s.applied = append(s.applied, Op{Kind: kind, Key: r.Key, ID: id, Amount: r.Amount})
		}
	}
	if lostReply {
		return "", ErrUnavailable
	}
	return rep.id, rep.err
}

func (s *Simulated) wait(ctx context.Context) error {
	if s.cfg.Latency <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(s.cfg.Latency)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *Simulated) newID(prefix string) string {
	s.next++
	return fmt.Sprintf("%s_%06d", prefix, s.next)
}

// chance maps (seed, what, key, n) to [0, 1).
func (s *Simulated) chance(what, key string, n int) float64 {
	h := fnv.New64a()
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], s.cfg.Seed)
	binary.LittleEndian.PutUint64(b[8:], uint64(n))
	h.Write(b[:])
	h.Write([]byte(what))
	h.Write([]byte{0})
	h.Write([]byte(key))
	return float64(h.Sum64()>>11) / float64(uint64(1)<<53)
}

var _ Gateway = (*Simulated)(nil)

var _ Gateway = (*Simulated)(nil)
