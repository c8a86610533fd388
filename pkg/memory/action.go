package memory

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"github.com/recmem/recmem/pkg/ident"
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
// metadata is m, at time t (unix seconds). ClientID, when set, names this
// observation for idempotency: the client gives every action its own id and
// sends the same id again when it retries, and a signal whose id the memory
// has seen (State.ClientIDs) is acknowledged without being recorded again.
type Signal struct {
	User   string              `json:"user"`
	Item   string              `json:"item"`
	Action string              `json:"action"`
	Rating int                 `json:"rating,omitempty"`
	Meta   map[string][]string `json:"meta,omitempty"`
	// Time is in unix seconds, 0 to 4102444799 (2099-12-31): an input, the
	// module never reads a clock.
	Time int64 `json:"time"`
	// ClientID names this action for idempotency: send the same id again
	// when retrying; a signal whose id the memory has seen (the newest 256)
	// with the same content is acknowledged under "repeated" and not
	// recorded again, and one with other content is refused (an id names
	// one signal, as an idempotency key names one request).
	ClientID string `json:"client_id,omitempty"`
}

// Fingerprint names the signal's content, its client id left out: 16 hex
// digits of the FNV-1a 64-bit hash of its JSON (user, item, action,
// rating, metadata with its fields sorted, time), the same on every host. A
// retry sends the same signal, so it has the same fingerprint; a client id
// reused for another signal does not. O(size of the signal).
func (g Signal) Fingerprint() string {
	g.ClientID = ""
	b, _ := json.Marshal(g)
	h := fnv.New64a()
	h.Write(b)
	return fmt.Sprintf("%016x", h.Sum64())
}

// Limits on the size of one signal, so that a state document stays small.
const (
	// MaxClientIDs is how many client ids a memory keeps (the newest): a
	// retry is recognized while its id is among the last 256 ids seen.
	MaxClientIDs = 256
	// MaxClientIDLen bounds one client id (a UUID takes 36 bytes).
	MaxClientIDLen = 128
	maxIDLen       = 256
	maxMetaField   = 64
	maxMetaVals    = 64
	maxValueLen    = 2000
)

// validate checks a signal; the error names the field ("action: unknown
// action \"zap\"").
func (g Signal) validate() error {
	switch {
	case ident.Check(g.User, maxIDLen) != nil:
		return fmt.Errorf("user: %w", ident.Check(g.User, maxIDLen))
	case ident.Check(g.Item, maxIDLen) != nil:
		return fmt.Errorf("item: %w", ident.Check(g.Item, maxIDLen))
	case !slices.Contains(Actions, g.Action):
		return fmt.Errorf("action: unknown action %q", g.Action)
	case g.Action == "rate" && g.Rating == 0:
		return fmt.Errorf("rating: required by the \"rate\" action (1 to 5)")
	case g.Action == "rate" && (g.Rating < 1 || g.Rating > 5):
		return fmt.Errorf("rating: must be between 1 and 5, got %d", g.Rating)
	case g.Action != "rate" && g.Rating != 0:
		return fmt.Errorf("rating: only the \"rate\" action takes a rating")
	}
	if err := CheckTime(g.Time); err != nil {
		return fmt.Errorf("time: %w", err)
	}
	if g.ClientID != "" {
		if err := ident.Check(g.ClientID, MaxClientIDLen); err != nil {
			return fmt.Errorf("client_id: %w", err)
		}
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
