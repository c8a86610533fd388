package memory

import (
	"fmt"
	"slices"
	"strings"
)

// Actions are the signal types event memory accepts.
//
// Polarity (what a signal says about the item's features):
//
//	purchase, like, rate 4-5   positive (+1)
//	dislike, skip, rate 1-2    negative (-1)
//	click, view, rate 3        neutral (0): kept as ranking context, extracted
//	                           as "seen" but never creating, boosting or
//	                           demoting a chunk
//
// Only "rate" carries a rating, and it must carry one (1 to 5).
var Actions = []string{"purchase", "like", "rate", "click", "view", "dislike", "skip"}

// Polarity returns +1, -1 or 0 for an action and its rating (see Actions).
func Polarity(action string, rating int) int {
	switch action {
	case "purchase", "like":
		return 1
	case "dislike", "skip":
		return -1
	case "rate":
		switch {
		case rating >= 4:
			return 1
		case rating <= 2:
			return -1
		}
	}
	return 0
}

// Signal is one observation to record: user u did action a on item i, whose
// metadata is m, at time t (unix seconds).
type Signal struct {
	User   string              `json:"user"`
	Item   string              `json:"item"`
	Action string              `json:"action"`
	Rating int                 `json:"rating,omitempty"`
	Meta   map[string][]string `json:"meta,omitempty"`
	Time   int64               `json:"time"`
}

// Limits on the size of one signal, so that a state document stays small.
const (
	maxIDLen     = 256
	maxMetaField = 64
	maxMetaVals  = 64
	maxValueLen  = 2000
)

// validate checks a signal; the error names the field ("action: unknown
// action \"zap\"").
func (g Signal) validate() error {
	switch {
	case g.User == "":
		return fmt.Errorf("user: required")
	case len(g.User) > maxIDLen:
		return fmt.Errorf("user: longer than %d bytes", maxIDLen)
	case g.Item == "":
		return fmt.Errorf("item: required")
	case len(g.Item) > maxIDLen:
		return fmt.Errorf("item: longer than %d bytes", maxIDLen)
	case !slices.Contains(Actions, g.Action):
		return fmt.Errorf("action: unknown action %q", g.Action)
	case g.Action == "rate" && (g.Rating < 1 || g.Rating > 5):
		return fmt.Errorf("rating: must be between 1 and 5, got %d", g.Rating)
	case g.Action != "rate" && g.Rating != 0:
		return fmt.Errorf("rating: only the \"rate\" action takes a rating")
	case g.Time < 0:
		return fmt.Errorf("time: must not be negative, got %d", g.Time)
	}
	return validateMeta(g.Meta)
}

func validateMeta(m map[string][]string) error {
	if len(m) > maxMetaField {
		return fmt.Errorf("meta: at most %d fields, got %d", maxMetaField, len(m))
	}
	for _, f := range sortedKeys(m) {
		vs := m[f]
		switch {
		case strings.TrimSpace(f) == "":
			return fmt.Errorf("meta: empty field name")
		case len(f) > maxIDLen:
			return fmt.Errorf("meta.%s: field name longer than %d bytes", f, maxIDLen)
		case len(vs) > maxMetaVals:
			return fmt.Errorf("meta.%s: at most %d values, got %d", f, maxMetaVals, len(vs))
		}
		for i, v := range vs {
			if strings.TrimSpace(v) == "" {
				return fmt.Errorf("meta.%s[%d]: empty value", f, i)
			}
			if len(v) > maxValueLen {
				return fmt.Errorf("meta.%s[%d]: longer than %d bytes", f, i, maxValueLen)
			}
		}
	}
	return nil
}
