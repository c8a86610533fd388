package memory

import (
	"fmt"
	"slices"
	"strings"
)

// Op is one lifecycle operation, as a planner, an LLM or a user's edit gives
// it to State.Apply. Which fields an op takes:
//
//	extract     (none): run the Extractor over the pending events, or over
//	            the pending events listed in events
//	extract     category, text [, key, polarity, strength, events]: add this
//	            chunk (key defaults to the salient words of text, polarity to
//	            "likes", strength to Config.InitialStrength)
//	boost       chunk or chunks [, events]: strength += delta_plus, evidence+1
//	demote      chunk or chunks [, events]: strength -= delta_minus, evidence+1
//	merge       chunks (2 or more, one category and polarity) [, text]: the
//	            first survives
//	forget      chunk or chunks: only when the forget rule holds, unless the
//	            trigger is "user"
//	synthesize  (none): rebuild the profile
//	edit        chunk, text and/or strength (trigger "user" only)
//	delete      chunk or chunks (trigger "user" only)
//	avoid       category, key [, text, strength, aliases] (trigger "user"
//	            only): a standing wish never to be shown something ("never
//	            show me Halo"): a stated "avoids" chunk, strength 1 unless
//	            given; a chunk of that category and key already there is
//	            turned into it
//	add         text [, category, key, polarity, strength, aliases] (trigger
//	            "user" only): a preference the user states ("likes racing",
//	            "avoids Nintendo"; see ParseStated), a stated chunk of
//	            strength 1 unless given, in the topic category unless given;
//	            a chunk of that category and key is turned into it
//
// Reason is optional everywhere; when given it is what the journal records.
type Op struct {
	Op       string   `json:"op"`
	Chunk    string   `json:"chunk,omitempty"`
	Chunks   []string `json:"chunks,omitempty"`
	Category string   `json:"category,omitempty"`
	Key      string   `json:"key,omitempty"`
	Polarity string   `json:"polarity,omitempty"`
	Text     string   `json:"text,omitempty"`
	Strength *float64 `json:"strength,omitempty"`
	Events   []string `json:"events,omitempty"`
	// Aliases are other keys the chunk is about ("avoids Nintendo": each
	// Nintendo platform), for add and avoid.
	Aliases []string `json:"aliases,omitempty"`
	Reason  string   `json:"reason,omitempty"`
}

// OpNames lists the ops Apply takes, in the order of Op's doc (opFields has
// an entry for each).
var OpNames = []string{"extract", "boost", "demote", "merge", "forget", "synthesize", "edit", "delete", "avoid", "add"}

// opFields lists the fields each op may carry, besides op and reason.
var opFields = map[string][]string{
	"extract":    {"category", "key", "polarity", "text", "strength", "events"},
	"boost":      {"chunk", "chunks", "events"},
	"demote":     {"chunk", "chunks", "events"},
	"merge":      {"chunks", "text"},
	"forget":     {"chunk", "chunks"},
	"synthesize": {},
	"edit":       {"chunk", "text", "strength"},
	"delete":     {"chunk", "chunks"},
	"avoid":      {"category", "key", "text", "strength", "aliases"},
	"add":        {"category", "key", "polarity", "text", "strength", "aliases"},
}

// Limits on what an op may set.
const (
	maxTextLen = 300
	maxAliases = 32
)

// present lists the optional fields o sets, in a fixed order.
func (o Op) present() []string {
	var fs []string
	add := func(name string, set bool) {
		if set {
			fs = append(fs, name)
		}
	}
	add("chunk", o.Chunk != "")
	add("chunks", o.Chunks != nil)
	add("category", o.Category != "")
	add("key", o.Key != "")
	add("polarity", o.Polarity != "")
	add("text", o.Text != "")
	add("strength", o.Strength != nil)
	add("events", o.Events != nil)
	add("aliases", o.Aliases != nil)
	return fs
}

// check validates the shape of o: a known op and only the fields it takes.
func (o Op) check() error {
	allowed, ok := opFields[o.Op]
	if !ok {
		return fmt.Errorf("op: unknown op %q", o.Op)
	}
	for _, f := range o.present() {
		if !slices.Contains(allowed, f) {
			return fmt.Errorf("%s: not used by %s", f, o.Op)
		}
	}
	if o.Text != "" {
		if strings.TrimSpace(o.Text) == "" {
			return fmt.Errorf("text: blank")
		}
		if len(o.Text) > maxTextLen {
			return fmt.Errorf("text: longer than %d bytes", maxTextLen)
		}
	}
	if o.Strength != nil {
		if v := *o.Strength; !(v >= 0 && v <= 1) {
			return fmt.Errorf("strength: %v is outside [0,1]", v)
		}
	}
	if len(o.Aliases) > maxAliases {
		return fmt.Errorf("aliases: at most %d, got %d", maxAliases, len(o.Aliases))
	}
	return nil
}

// sweep reports whether an extract op asks the Extractor to run, rather than
// adding a given chunk.
func (o Op) sweep() bool {
	return o.Category == "" && o.Key == "" && o.Polarity == "" && o.Text == "" && o.Strength == nil
}

// targets returns the chunk ids o names, each with the field that names it
// ("chunk" or "chunks[2]"), refusing a missing, doubled or repeated target.
func (o Op) targets() ([]string, []string, error) {
	switch {
	case o.Chunk != "" && o.Chunks != nil:
		return nil, nil, fmt.Errorf("chunks: give chunk or chunks, not both")
	case o.Chunk != "":
		return []string{o.Chunk}, []string{"chunk"}, nil
	case len(o.Chunks) == 0:
		if o.Chunks != nil {
			return nil, nil, fmt.Errorf("chunks: empty")
		}
		return nil, nil, fmt.Errorf("chunk: required")
	}
	fields := make([]string, len(o.Chunks))
	for i, id := range o.Chunks {
		fields[i] = fmt.Sprintf("chunks[%d]", i)
		if slices.Index(o.Chunks, id) != i {
			return nil, nil, fmt.Errorf("%s: chunk %q listed twice", fields[i], id)
		}
	}
	return o.Chunks, fields, nil
}
