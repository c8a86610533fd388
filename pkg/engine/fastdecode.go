package engine

import "github.com/recmem/recmem/pkg/slate"

// decodeUnitsFast decodes add_units' input {"units": [...]} without
// reflection when it has the plain shape (slate.ParseUnits); ok false means
// the caller decodes it with decodeStrict, which decodes it or names what
// is wrong. FuzzDecodeUnitsFast holds the two to the same result.
func decodeUnitsFast(input []byte) ([]slate.Unit, bool) { return slate.ParseUnits(input, "units") }
