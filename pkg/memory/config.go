package memory

import (
	"fmt"
	"slices"
)

// Config holds the memory's parameters. The zero value of every field means its
// documented default, so Config{} is the paper's setting. A State stores the
// resolved config (defaults filled in), so an exported document shows the
// numbers actually in force. Durations are in seconds.
type Config struct {
	// EventCap is L_max, the capacity of the event FIFO. Default 15.
	EventCap int `json:"event_cap"`
	// KCat is the most chunks one category may hold. Default 4.
	KCat int `json:"k_cat"`
	// DeltaPlus is the boost step. Default 0.1.
	DeltaPlus float64 `json:"delta_plus"`
	// DeltaMinus is the demote step; larger than DeltaPlus in the paper
	// (pessimistic update). Default 0.2.
	DeltaMinus float64 `json:"delta_minus"`
	// ForgetThreshold: a chunk may be forgotten when its strength is at or
	// below this value... Default 0.3.
	ForgetThreshold float64 `json:"forget_threshold"`
	// ForgetMinEvidence: ...and its evidence count is at least this. Default 2.
	ForgetMinEvidence int `json:"forget_min_evidence"`
	// Gamma: a synthesis runs automatically once this many mutations have
	// been applied since the last synthesis. Default 5.
	Gamma int `json:"gamma"`
	// Batch is B, the pending-signal count at which the fixed scheduler
	// maintains. Default 5; at most EventCap.
	Batch int `json:"batch"`
	// InitialStrength is the strength of a chunk extracted from one
	// supporting signal. Default 0.7.
	InitialStrength float64 `json:"initial_strength"`
	// SupportStep is added to the initial strength per extra supporting
	// signal. Default 0.1.
	SupportStep float64 `json:"support_step"`
	// MaxInitialStrength caps the initial strength. Default 0.9.
	MaxInitialStrength float64 `json:"max_initial_strength"`
	// MinSupport is the net positive support a metadata value (genre,
	// author, brand...) needs to become a chunk. Default 1.
	MinSupport int `json:"min_support"`
	// MinTitleSupport is the net support a feature guessed from titles
	// (series, platform, salient term) needs. Default 2.
	MinTitleSupport int `json:"min_title_support"`
	// MinAvoidSupport is the net negative support any feature needs to
	// become an "avoids" chunk. Default 2.
	MinAvoidSupport int `json:"min_avoid_support"`
	// ChunkEvents bounds the supporting event ids kept per chunk (the most
	// recent ones). Default 8.
	ChunkEvents int `json:"chunk_events"`
	// JournalCap bounds the journal; the oldest entries go first. Default 200.
	JournalCap int `json:"journal_cap"`
	// MergeJaccard is the term-overlap (Jaccard) at or above which two chunks
	// of one category and polarity are near-duplicates. Default 0.6.
	MergeJaccard float64 `json:"merge_jaccard"`
	// StrongStrength: a pending signal against a chunk at least this strong
	// is a contradiction the planner acts on at once. Default 0.7.
	StrongStrength float64 `json:"strong_strength"`
	// StalePending: the planner extracts when the oldest pending signal is
	// this old. Default 604800 (7 days).
	StalePending int64 `json:"stale_pending"`
	// StaleChunk: the planner demotes a chunk not seen for this long.
	// Default 7776000 (90 days).
	StaleChunk int64 `json:"stale_chunk"`
	// ProfileMaxAge: the planner resynthesizes a profile this old that lags
	// behind mutations. Default 86400 (1 day).
	ProfileMaxAge int64 `json:"profile_max_age"`
	// Categories are the domain's preference categories (MARS uses six per
	// domain), normalized to lower_snake_case. Empty means derived from the
	// metadata field names of the items seen (see MetadataExtractor).
	Categories []string `json:"categories"`
}

// Defaults returns the documented default configuration.
func Defaults() Config { return Config{}.Resolved() }

// Resolved returns c with every zero field set to its default and the
// categories normalized. It never fails; Validate reports bad values.
func (c Config) Resolved() Config {
	setInt(&c.EventCap, 15)
	setInt(&c.KCat, 4)
	setFloat(&c.DeltaPlus, 0.1)
	setFloat(&c.DeltaMinus, 0.2)
	setFloat(&c.ForgetThreshold, 0.3)
	setInt(&c.ForgetMinEvidence, 2)
	setInt(&c.Gamma, 5)
	setInt(&c.Batch, 5)
	setFloat(&c.InitialStrength, 0.7)
	setFloat(&c.SupportStep, 0.1)
	setFloat(&c.MaxInitialStrength, 0.9)
	setInt(&c.MinSupport, 1)
	setInt(&c.MinTitleSupport, 2)
	setInt(&c.MinAvoidSupport, 2)
	setInt(&c.ChunkEvents, 8)
	setInt(&c.JournalCap, 200)
	setFloat(&c.MergeJaccard, 0.6)
	setFloat(&c.StrongStrength, 0.7)
	setInt64(&c.StalePending, 7*86400)
	setInt64(&c.StaleChunk, 90*86400)
	setInt64(&c.ProfileMaxAge, 86400)
	cats := make([]string, 0, len(c.Categories))
	for _, k := range c.Categories {
		cats = append(cats, normalizeCategory(k))
	}
	c.Categories = cats
	return c
}

func setInt(p *int, d int) {
	if *p == 0 {
		*p = d
	}
}

func setInt64(p *int64, d int64) {
	if *p == 0 {
		*p = d
	}
}

func setFloat(p *float64, d float64) {
	if *p == 0 {
		*p = d
	}
}

// Validate checks a caller's config, where zero fields mean the defaults. The
// error names the field first ("event_cap: must be between 1 and 1000, got -1").
func (c Config) Validate() error { return c.Resolved().check() }

// check validates a resolved config: zero values are refused here, because a
// stored config must show its real numbers.
func (c Config) check() error {
	ints := []struct {
		name     string
		v, lo, h int
	}{
		{"event_cap", c.EventCap, 1, 1000},
		{"k_cat", c.KCat, 1, 64},
		{"forget_min_evidence", c.ForgetMinEvidence, 1, 1000},
		{"gamma", c.Gamma, 1, 1000},
		{"batch", c.Batch, 1, c.EventCap},
		{"min_support", c.MinSupport, 1, 100},
		{"min_title_support", c.MinTitleSupport, 1, 100},
		{"min_avoid_support", c.MinAvoidSupport, 1, 100},
		{"chunk_events", c.ChunkEvents, 1, 1000},
		{"journal_cap", c.JournalCap, 1, 100000},
	}
	for _, f := range ints {
		if f.v < f.lo || f.v > f.h {
			return fmt.Errorf("%s: must be between %d and %d, got %d", f.name, f.lo, f.h, f.v)
		}
	}
	floats := []struct {
		name string
		v    float64
	}{
		{"delta_plus", c.DeltaPlus},
		{"delta_minus", c.DeltaMinus},
		{"forget_threshold", c.ForgetThreshold},
		{"initial_strength", c.InitialStrength},
		{"support_step", c.SupportStep},
		{"max_initial_strength", c.MaxInitialStrength},
		{"merge_jaccard", c.MergeJaccard},
		{"strong_strength", c.StrongStrength},
	}
	for _, f := range floats {
		if !(f.v > 0 && f.v <= 1) {
			return fmt.Errorf("%s: must be in (0,1], got %v", f.name, f.v)
		}
	}
	if c.MaxInitialStrength < c.InitialStrength {
		return fmt.Errorf("max_initial_strength: %v is below initial_strength %v", c.MaxInitialStrength, c.InitialStrength)
	}
	durations := []struct {
		name string
		v    int64
	}{
		{"stale_pending", c.StalePending},
		{"stale_chunk", c.StaleChunk},
		{"profile_max_age", c.ProfileMaxAge},
	}
	for _, f := range durations {
		if f.v <= 0 || f.v > MaxTime {
			return fmt.Errorf("%s: must be a positive number of seconds up to %d, got %d", f.name, MaxTime, f.v)
		}
	}
	if len(c.Categories) > 64 {
		return fmt.Errorf("categories: at most 64, got %d", len(c.Categories))
	}
	for i, k := range c.Categories {
		switch {
		case k == "":
			return fmt.Errorf("categories[%d]: empty category name", i)
		case k != normalizeCategory(k):
			return fmt.Errorf("categories[%d]: %q is not normalized (want %q)", i, k, normalizeCategory(k))
		case slices.Index(c.Categories, k) != i:
			return fmt.Errorf("categories[%d]: duplicate category %q", i, k)
		}
	}
	return nil
}

// clone returns c with its own copy of the categories.
func (c Config) clone() Config {
	c.Categories = slices.Clone(c.Categories)
	return c
}
