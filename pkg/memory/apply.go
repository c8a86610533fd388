package memory

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Apply runs a batch of ops at time now, atomically: the ops apply in order to
// a copy of s, which replaces s only if all of them succeed; on error s is
// untouched. It returns the journal entries written, in order, including the
// automatic syntheses (every Config.Gamma mutations) and capacity outcomes.
// Errors name the op and field: `ops[2].chunk: unknown chunk "c99"`.
// trigger is one of Triggers; now may not be earlier than s.Clock.
// Cost: O(size of s) for the copy plus the ops' own work.
func (s *State) Apply(now int64, trigger string, ops []Op, pol Policy) ([]Entry, error) {
	if !slices.Contains(Triggers, trigger) {
		return nil, fmt.Errorf("trigger: unknown trigger %q", trigger)
	}
	if err := s.checkNow(now); err != nil {
		return nil, err
	}
	w := s.Clone()
	w.Clock = now
	t := &txn{s: w, now: now, trigger: trigger, pol: pol, out: []Entry{}}
	for i, o := range ops {
		if err := t.apply(o); err != nil {
			return nil, fmt.Errorf("ops[%d].%w", i, err)
		}
	}
	if t.edited && w.Counters.Mutations > 0 {
		// The profile must not go on saying what the user just changed.
		if err := t.synthesize("auto", "the profile is rewritten after the user's edit"); err != nil {
			return nil, err
		}
	}
	if err := w.checkExhausted(); err != nil {
		return nil, err
	}
	*s = *w
	return t.out, nil
}

func (s *State) checkNow(now int64) error {
	if err := CheckTime(now); err != nil {
		return fmt.Errorf("now: %w", err)
	}
	if now < s.Clock {
		return fmt.Errorf("now: %d is earlier than the memory clock %d", now, s.Clock)
	}
	return nil
}

// txn is a batch in progress on a working copy.
type txn struct {
	s       *State
	now     int64
	trigger string
	pol     Policy
	out     []Entry
	edited  bool // a user's edit, delete, add or avoid was applied
}

func (t *txn) apply(o Op) error {
	if err := o.check(); err != nil {
		return err
	}
	switch o.Op {
	case "edit", "delete", "add", "avoid":
		t.edited = true
	}
	switch o.Op {
	case "extract":
		if o.sweep() {
			return t.extractPending(o)
		}
		return t.create(o)
	case "boost":
		return t.step(o, t.s.Config.DeltaPlus)
	case "demote":
		return t.step(o, -t.s.Config.DeltaMinus)
	case "merge":
		return t.merge(o)
	case "forget", "delete":
		return t.remove(o)
	case "synthesize":
		return t.synthesize(t.trigger, cmp.Or(o.Reason, "requested by "+t.trigger))
	case "edit":
		return t.edit(o)
	case "avoid":
		return t.avoid(o)
	case "add":
		return t.add(o)
	}
	return fmt.Errorf("op: unknown op %q", o.Op)
}

// journal appends e (numbered, timed, trimmed to the cap) and counts it as a
// mutation where it is one, synthesizing when the count reaches gamma.
func (t *txn) journal(e Entry) error {
	s := t.s
	e.Seq = s.Counters.NextSeq
	s.Counters.NextSeq++
	e.Time = t.now
	if e.Trigger == "" {
		e.Trigger = t.trigger
	}
	s.Journal = append(s.Journal, e)
	if over := len(s.Journal) - s.Config.JournalCap; over > 0 {
		// Entries are immutable and may be shared with other copies: drop
		// the oldest by reslicing, never by shifting in place.
		s.Journal = s.Journal[over:]
	}
	t.out = append(t.out, e)
	if !mutates(e) {
		return nil
	}
	s.Counters.Mutations++
	if n := s.Counters.Mutations; n >= s.Config.Gamma {
		return t.synthesize("auto", fmt.Sprintf("%d mutations since last synthesis", n))
	}
	return nil
}

// synthesize rebuilds the profile with the Synthesizer. Not a mutation; it
// resets the mutation count.
func (t *txn) synthesize(trigger, reason string) error {
	p, err := t.pol.synthesizer().Synthesize(t.s)
	if err != nil {
		return fmt.Errorf("op: synthesizer: %w", err)
	}
	p.Version = t.s.Profile.Version + 1
	p.Time = t.now
	p.BuiltFrom = nonNil(p.BuiltFrom)
	p.Rising = nonNil(p.Rising)
	p.Fading = nonNil(p.Fading)
	t.s.Profile = p
	t.s.Counters.Mutations = 0
	ids := make([]string, len(p.BuiltFrom))
	for i, r := range p.BuiltFrom {
		ids[i] = r.Chunk
	}
	return t.journal(Entry{Op: "synthesize", Trigger: trigger, Chunks: ids, Reason: reason})
}

// setStrength sets c's strength to x, rounded and clamped, and records the
// change for the synthesizer's rising and fading.
func (t *txn) setStrength(c *Chunk, x float64) {
	after := roundStrength(x)
	c.LastDelta = roundDelta(after - c.Strength)
	c.Epoch = t.s.Profile.Version
	c.Strength = after
}

// eventTimes checks that every id names an event in memory and returns the
// earliest and latest of their times (now and now when ids is empty).
func (t *txn) eventTimes(ids []string) (first, last int64, err error) {
	if len(ids) == 0 {
		return t.now, t.now, nil
	}
	for i, id := range ids {
		j := t.s.eventIndex(id)
		if j < 0 {
			return 0, 0, fmt.Errorf("events[%d]: unknown event %q", i, id)
		}
		if slices.Index(ids, id) != i {
			return 0, 0, fmt.Errorf("events[%d]: event %q listed twice", i, id)
		}
		tm := t.s.Events[j].Time
		if i == 0 || tm < first {
			first = tm
		}
		if i == 0 || tm > last {
			last = tm
		}
	}
	return first, last, nil
}

// processed marks events as seen by extraction: an event cited as evidence
// must not count again when the pending events are extracted.
func (t *txn) processed(ids []string) {
	for _, id := range ids {
		t.s.Events[t.s.eventIndex(id)].Pending = false
	}
}

// lookup resolves o's targets to chunk indexes at the time of the call.
func (t *txn) lookup(id, field string) (int, error) {
	i := t.s.chunkIndex(id)
	if i < 0 {
		for _, ts := range t.s.Tombstones {
			if ts.Chunk == id {
				return -1, fmt.Errorf("%s: unknown chunk %q (the user deleted it: %q)", field, id, ts.Text)
			}
		}
		return -1, fmt.Errorf("%s: unknown chunk %q", field, id)
	}
	return i, nil
}

// step boosts (d > 0) or demotes (d < 0) each target: strength += d,
// evidence + 1, last_seen moves to the latest event given (or now). Boosting
// events join the chunk's supporting events.
func (t *txn) step(o Op, d float64) error {
	ids, fields, err := o.targets()
	if err != nil {
		return err
	}
	_, last, err := t.eventTimes(o.Events)
	if err != nil {
		return err
	}
	t.processed(o.Events)
	for k, id := range ids {
		i, err := t.lookup(id, fields[k])
		if err != nil {
			return err
		}
		c := &t.s.Chunks[i]
		if err := t.userOnly(c, fields[k], o.Op); err != nil {
			return err
		}
		before := c.Strength
		t.setStrength(c, before+d)
		c.Evidence++
		c.LastSeen = max(c.LastSeen, last)
		if d > 0 {
			c.Events = addEvents(c.Events, o.Events, t.s.Config.ChunkEvents)
		}
		e := Entry{Op: o.Op, Chunks: []string{id}, Events: o.Events, Before: ptr(before), After: ptr(c.Strength),
			Reason: cmp.Or(o.Reason, map[string]string{"boost": "boosted", "demote": "demoted"}[o.Op]+" by "+t.trigger)}
		if err := t.journal(e); err != nil {
			return err
		}
	}
	return nil
}

// remove forgets or deletes each target. Forget holds to the rule (strength at
// or below the threshold with enough evidence) unless the user asks; delete
// is a user's edit.
func (t *txn) remove(o Op) error {
	if o.Op == "delete" && t.trigger != "user" {
		return fmt.Errorf("op: delete is a user's edit (trigger \"user\"); use forget")
	}
	ids, fields, err := o.targets()
	if err != nil {
		return err
	}
	cfg := t.s.Config
	for k, id := range ids {
		i, err := t.lookup(id, fields[k])
		if err != nil {
			return err
		}
		c := t.s.Chunks[i]
		if err := t.userOnly(&c, fields[k], o.Op); err != nil {
			return err
		}
		reason := o.Reason
		if o.Op == "forget" {
			ok, rule := forgetRule(c, cfg)
			if !ok && t.trigger != "user" {
				return fmt.Errorf("%s: chunk %q does not meet the forget rule (%s)", fields[k], id, rule)
			}
			if !ok {
				rule = "at the user's request; " + rule
			}
			reason = cmp.Or(reason, rule)
		}
		t.s.Chunks = slices.Delete(t.s.Chunks, i, i+1)
		if o.Op == "delete" {
			reason = cmp.Or(reason, t.bury(c))
		}
		e := Entry{Op: o.Op, Chunks: []string{id}, Before: ptr(c.Strength), Reason: reason}
		if err := t.journal(e); err != nil {
			return err
		}
	}
	return nil
}

// userOnly refuses a lifecycle op other than the user's on a chunk the user
// stated: only the user changes it.
func (t *txn) userOnly(c *Chunk, field, op string) error {
	if c.Stated && t.trigger != "user" {
		return fmt.Errorf("%s: chunk %q is the user's own (%q): %s is left to the user", field, c.ID, c.Text, op)
	}
	return nil
}

// bury leaves a tombstone for a chunk the user deleted (see Tombstone) and
// returns the journal's sentence about it.
func (t *txn) bury(c Chunk) string {
	s := t.s
	s.liftTombstone(c.Category, c.Key, "")
	s.Tombstones = append(s.Tombstones, Tombstone{Chunk: c.ID, Category: c.Category, Key: c.Key, Aliases: slices.Clone(c.Aliases),
		Polarity: c.Polarity, Text: c.Text, Before: s.Counters.NextEvent, Time: t.now})
	if over := len(s.Tombstones) - MaxTombstones; over > 0 {
		s.Tombstones = slices.Delete(s.Tombstones, 0, over)
	}
	if c.Stated || s.Counters.NextEvent == 1 {
		return fmt.Sprintf("the user deleted %q", c.Text)
	}
	return fmt.Sprintf("the user deleted %q: the events up to e%d will not bring it back, nor pull recommendations its way", c.Text, s.Counters.NextEvent-1)
}

// forgetRule reports whether c may be forgotten (strength <= threshold and
// evidence >= min) and states the rule's outcome.
func forgetRule(c Chunk, cfg Config) (bool, string) {
	switch {
	case c.Strength > cfg.ForgetThreshold:
		return false, fmt.Sprintf("strength %s is above the threshold %s", fmtStrength(c.Strength), fmtStrength(cfg.ForgetThreshold))
	case c.Evidence < cfg.ForgetMinEvidence:
		return false, fmt.Sprintf("evidence %d is below the minimum %d", c.Evidence, cfg.ForgetMinEvidence)
	}
	return true, fmt.Sprintf("strength %s is at or below the threshold %s, with evidence %d (minimum %d)",
		fmtStrength(c.Strength), fmtStrength(cfg.ForgetThreshold), c.Evidence, cfg.ForgetMinEvidence)
}

// edit changes a chunk's text and/or strength at the user's request. Evidence
// is unchanged: an edit is not a signal.
func (t *txn) edit(o Op) error {
	if t.trigger != "user" {
		return fmt.Errorf("op: edit is a user's edit (trigger \"user\")")
	}
	if o.Chunk == "" {
		return fmt.Errorf("chunk: required")
	}
	if o.Text == "" && o.Strength == nil {
		return fmt.Errorf("text: give text, strength or both")
	}
	i, err := t.lookup(o.Chunk, "chunk")
	if err != nil {
		return err
	}
	c := &t.s.Chunks[i]
	e := Entry{Op: "edit", Chunks: []string{c.ID}}
	var what []string
	if o.Text != "" {
		c.Text = strings.TrimSpace(o.Text)
		what = append(what, "text")
	}
	if o.Strength != nil {
		e.Before = ptr(c.Strength)
		t.setStrength(c, *o.Strength)
		e.After = ptr(c.Strength)
		c.Stated = true
		what = append(what, "strength")
	}
	e.Reason = cmp.Or(o.Reason, fmt.Sprintf("the user edited the %s of %q", strings.Join(what, " and "), c.Text))
	if o.Strength != nil {
		e.Reason += "; signals no longer move it"
	}
	return t.journal(e)
}

// merge folds chunks[1:] into chunks[0]: the survivor keeps its id and text
// (or o.Text), the highest strength, the sum of evidence, the union of
// supporting events and aliases, the earliest first_seen and the latest
// last_seen. All must share category and polarity.
func (t *txn) merge(o Op) error {
	if len(o.Chunks) < 2 {
		return fmt.Errorf("chunks: merge needs at least 2 chunks, got %d", len(o.Chunks))
	}
	ids, fields, err := o.targets()
	if err != nil {
		return err
	}
	var parts []Chunk
	for k, id := range ids {
		i, err := t.lookup(id, fields[k])
		if err != nil {
			return err
		}
		c := t.s.Chunks[i]
		if err := t.userOnly(&c, fields[k], "merge"); err != nil {
			return err
		}
		if k > 0 {
			switch head := parts[0]; {
			case c.Category != head.Category:
				return fmt.Errorf("%s: chunk %q is in category %q, not %q", fields[k], id, c.Category, head.Category)
			case c.Polarity != head.Polarity:
				return fmt.Errorf("%s: chunk %q %s, chunk %q %s", fields[k], id, c.Polarity, head.ID, head.Polarity)
			}
		}
		parts = append(parts, c)
	}
	sv := parts[0]
	best := sv.Strength
	for _, c := range parts[1:] {
		best = max(best, c.Strength)
		sv.Evidence += c.Evidence
		sv.FirstSeen = min(sv.FirstSeen, c.FirstSeen)
		sv.LastSeen = max(sv.LastSeen, c.LastSeen)
		sv.Events = addEvents(sv.Events, c.Events, t.s.Config.ChunkEvents)
		for _, k := range append([]string{c.Key}, c.Aliases...) {
			if k != sv.Key && !slices.Contains(sv.Aliases, k) {
				sv.Aliases = append(sv.Aliases, k)
			}
		}
	}
	slices.Sort(sv.Aliases)
	if best != sv.Strength {
		t.setStrength(&sv, best)
	}
	if o.Text != "" {
		sv.Text = strings.TrimSpace(o.Text)
	}
	t.s.Chunks = slices.DeleteFunc(t.s.Chunks, func(c Chunk) bool { return slices.Contains(ids[1:], c.ID) })
	t.s.Chunks[t.s.chunkIndex(sv.ID)] = sv
	e := Entry{Op: "merge", Chunks: ids, Before: ptr(parts[0].Strength), After: ptr(sv.Strength),
		Reason: cmp.Or(o.Reason, "merged by "+t.trigger)}
	return t.journal(e)
}

// addEvents returns the union of have and add, ordered by event number and
// cut to the newest limit ids.
func addEvents(have, add []string, limit int) []string {
	out := slices.Clone(have)
	if out == nil {
		out = []string{}
	}
	for _, id := range add {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return idNumber(a, 'e') - idNumber(b, 'e') })
	if len(out) > limit {
		out = out[len(out)-limit:]
	}
	return out
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
