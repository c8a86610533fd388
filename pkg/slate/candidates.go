package slate

// Candidate is one pooled unit with its features, as training sees it.
type Candidate struct {
	ID      string
	Key     int // insertion order, the tie-break of the fill
	Tokens  int
	Context bool
	Line    uint64    // the key of its rendered line: a slate holds one unit per line (0: unknown)
	X       []float64 // ordered as FeatureNames
}

// Candidates returns the candidate pool of a request with every feature, in
// fused order (retrieved units, then context neighbours).
func (s *Store) Candidates(query, date string, pool int) ([]Candidate, error) {
	req := Request{Query: query, Date: date, Pool: pool, Ranker: "rrf"}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	if pool == 0 {
		pool = DefaultPool
	}
	if len(s.entries) == 0 {
		return nil, nil
	}
	var at int64
	if date != "" {
		at, _ = ParseTime(date)
	}
	r := s.retrieve(analyse(s, query, at), true, pool)
	cs := s.pool(r, pool, true)
	out := make([]Candidate, len(cs))
	for i, c := range cs {
		out[i] = Candidate{ID: c.e.u.ID, Key: c.e.key, Tokens: c.e.tokens, Context: c.context, Line: lineKey(c.e), X: c.x}
	}
	return out, nil
}
