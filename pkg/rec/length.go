package rec

// History-length groups: how a user's history compares with the event
// list's capacity (Config.EventCap). A history that fits is all in the event
// list when the ranker reads it; a longer one has lost its oldest events,
// whose signal only the preference chunks and the profile can still carry.
const (
	LengthFits   = "fits"    // len(history) ≤ cap
	LengthLonger = "longer"  // cap < len(history) ≤ 3·cap
	LengthOver3x = "over_3x" // len(history) > 3·cap
)

// LengthGroups are the groups in report order.
var LengthGroups = []string{LengthFits, LengthLonger, LengthOver3x}

// LengthGroup names the group of a history of n signals against an event
// list of capacity cap (cap ≤ 0 is the memory's default, 15). O(1).
func LengthGroup(n, cap int) string {
	if cap <= 0 {
		cap = 15
	}
	switch {
	case n <= cap:
		return LengthFits
	case n <= 3*cap:
		return LengthLonger
	}
	return LengthOver3x
}

// LengthScores is one history-length group's figures: its users, the
// metrics over them, and the same on the four fifths used while building
// and on the held-out fifth (HeldOut).
type LengthScores struct {
	Group string `json:"group"`
	Users int    `json:"users"`
	Scores
	Split Split `json:"split"`
}

// ByHistoryLength splits ranks (one per case, in case order) by the cases'
// history length against an event list of capacity cap, in LengthGroups
// order; a group with no user is reported with 0 users. O(cases).
func ByHistoryLength(cases []Case, ranks []int, cap int) []LengthScores {
	out := make([]LengthScores, 0, len(LengthGroups))
	for _, g := range LengthGroups {
		var cs []Case
		var rs []int
		for i, c := range cases {
			if LengthGroup(len(c.History), cap) == g {
				cs, rs = append(cs, c), append(rs, ranks[i])
			}
		}
		out = append(out, LengthScores{Group: g, Users: len(cs), Scores: RankScores(rs), Split: SplitOf(cs, rs)})
	}
	return out
}
