// Package phase says where one call's time goes: a Timer adds the time since
// its last mark to the phase each mark names, with a clock its owner passes
// in. The module reads no clock of its own (time is an input): a host that
// wants the breakdown gives the engine a clock, and a nil Timer, the default,
// does nothing at all.
//
// Marks with the same name add up, so a phase split across a call (or run in
// a loop) is one figure. A phase's time is the wall time between two marks as
// the clock reads it, so a host whose clock stands still while the module
// computes (a Cloudflare Worker) reads zeros.
package phase

// Clock returns nanoseconds from any fixed origin, never decreasing.
type Clock func() int64

// Span is one phase of a call and the nanoseconds it took.
type Span struct {
	Name string `json:"name"`
	Ns   int64  `json:"ns"`
}

// Timer times the phases of one call at a time. A nil *Timer is valid and
// records nothing; every method on it returns at once. Not safe for
// concurrent use (an engine runs one call at a time).
type Timer struct {
	clock Clock
	last  int64
	spans []Span
}

// New returns a Timer reading c, or nil when c is nil.
func New(c Clock) *Timer {
	if c == nil {
		return nil
	}
	return &Timer{clock: c}
}

// Start forgets the spans of the last call and starts timing a new one.
// Cost: one clock read.
func (t *Timer) Start() {
	if t == nil {
		return
	}
	t.spans = t.spans[:0]
	t.last = t.clock()
}

// Mark ends the phase name: the time since the last mark (or Start) is added
// to it. Cost: one clock read and a scan of the phases so far (a few dozen
// at most); on a nil Timer, a comparison (Mark inlines, so an untimed call
// pays no call per mark).
func (t *Timer) Mark(name string) {
	if t != nil {
		t.mark(name)
	}
}

func (t *Timer) mark(name string) {
	now := t.clock()
	d := now - t.last
	t.last = now
	for i := range t.spans {
		if t.spans[i].Name == name {
			t.spans[i].Ns += d
			return
		}
	}
	t.spans = append(t.spans, Span{name, d})
}

// Skip restarts the phase being timed without adding the time since the last
// mark to any phase (the time of work the breakdown leaves out).
func (t *Timer) Skip() {
	if t == nil {
		return
	}
	t.last = t.clock()
}

// Spans returns a copy of the phases timed since Start, in the order of their
// first mark (nil for a nil Timer).
func (t *Timer) Spans() []Span {
	if t == nil {
		return nil
	}
	return append([]Span(nil), t.spans...)
}
