package controller

import "time"

// Clock is the operator's time.
type Clock interface {
	// Now is the time the operator evaluates the query at.
	Now() time.Time
	// Until is how long to wait, in real time, until the clock reads t.
	Until(t time.Time) time.Duration
}

// RealClock is the wall clock.
type RealClock struct{}

// Now returns time.Now().
func (RealClock) Now() time.Time { return time.Now() }

// Until returns time.Until(t).
func (RealClock) Until(t time.Time) time.Duration { return time.Until(t) }
