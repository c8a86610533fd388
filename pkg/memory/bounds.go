package memory

import (
	"errors"
	"fmt"
)

// Bounds on times and counters (docs/limits.md).
const (
	// MaxTime is the latest time the memory accepts, in unix seconds:
	// 2099-12-31T23:59:59Z. Every time is in [0, MaxTime]; so are
	// durations. The bound keeps a time given in milliseconds (1.7e12 for
	// 2023) from moving the memory's clock to year 55,843, after which every
	// real time would be "earlier than the clock": such a value is refused
	// and the message says it looks like milliseconds.
	MaxTime int64 = 4102444799
	// MaxCounter bounds every counter and id number (next_event, next_chunk,
	// next_seq, evidence, profile.version): 2^53, the largest integer every
	// JSON reader (JavaScript's numbers included) holds exactly. A call that
	// would pass it is refused with ErrExhausted, so the module never writes
	// a state it would refuse to read.
	MaxCounter = 1 << 53
)

// ErrExhausted is the error of a call that would take a counter of the
// state past MaxCounter. Its message names the state field, not an input
// field.
var ErrExhausted = errors.New("would pass 9007199254740992 (2^53), the largest id number a state holds; nothing was applied")

// CheckTime returns nil for a time in [0, MaxTime], else an error saying
// which unit the value looks like it was given in. The error does not name
// the field; the caller prefixes it.
func CheckTime(v int64) error {
	if v >= 0 && v <= MaxTime {
		return nil
	}
	const rng = "times are unix seconds from 0 to 4102444799 (2099-12-31)"
	if v < 0 {
		return fmt.Errorf("must not be negative, got %d", v)
	}
	for _, u := range []struct {
		name string
		div  int64
	}{{"milliseconds", 1e3}, {"microseconds", 1e6}, {"nanoseconds", 1e9}} {
		if s := v / u.div; s <= MaxTime {
			return fmt.Errorf("%d looks like %s (%d seconds is %s); %s", v, u.name, s, civilDate(s), rng)
		}
	}
	return fmt.Errorf("%d is out of range; %s", v, rng)
}

// checkCounter refuses a counter above MaxCounter.
func checkCounter(field string, v int) error {
	if v > MaxCounter {
		return fmt.Errorf("%s: %d is more than 9007199254740992 (2^53)", field, v)
	}
	return nil
}

// checkExhausted is run on a working copy before it replaces the state: a
// counter that an operation took past MaxCounter fails the whole call, with
// the state field named. Cost O(chunks).
func (s *State) checkExhausted() error {
	at := func(field string) error { return fmt.Errorf("state.memory.%s: %w", field, ErrExhausted) }
	c := s.Counters
	switch {
	case c.NextEvent > MaxCounter:
		return at("counters.next_event")
	case c.NextChunk > MaxCounter:
		return at("counters.next_chunk")
	case c.NextSeq > MaxCounter:
		return at("counters.next_seq")
	case s.Profile.Version > MaxCounter:
		return at("profile.version")
	}
	for i, ch := range s.Chunks {
		if ch.Evidence > MaxCounter {
			return at(fmt.Sprintf("chunks[%d].evidence", i))
		}
	}
	return nil
}

// civilDate writes the UTC date of unix seconds s (0 <= s <= MaxTime) as
// YYYY-MM-DD, by the days-to-civil algorithm of H. Hinnant
// (chrono-Compatible Low-Level Date Algorithms), without the time package's
// formatting code, which the module does not otherwise link. Cost O(1).
func civilDate(s int64) string {
	z := s/86400 + 719468
	era := z / 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return fmt.Sprintf("%04d-%02d-%02d", y, m, d)
}
