package intentlab

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/recmem/recmem/pkg/catalog"
)

// ReadCatalogFile reads the catalog a run ranks over from path, whichever of
// the three forms it is:
//
//   - the page's demo catalog (web/catalog/games-demo.json: an object with
//     "items" of title, platform, kind, format, series), read with its ranker
//     spec and intent table as ReadPageCatalog reads them;
//   - a binary catalog asset (`recmem train catalog`), decoded by
//     pkg/catalog for the judge's fields and loaded as it is;
//   - a JSON catalog asset (format "recmem.catalog"), loaded as it is; an
//     item's metadata value may be a string, a number or a list (joined with
//     "|" for the judge, Gold).
//
// specFile and tableFile belong to the page's catalog: naming one for an
// asset is an error (an asset carries its own weights and table). Errors name
// the file and the field at fault. Linear in the file.
func ReadCatalogFile(path, specFile, tableFile string) (Catalog, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Catalog{}, err
	}
	asset := catalog.IsBinary(b)
	if !asset {
		var head struct {
			Format string `json:"format"`
		}
		if err := json.Unmarshal(b, &head); err != nil {
			return Catalog{}, fmt.Errorf("%s: %w", path, err)
		}
		asset = head.Format == catalog.Format
	}
	if !asset {
		return ReadPageCatalog(path, specFile, tableFile)
	}
	switch {
	case specFile != "":
		return Catalog{}, fmt.Errorf("%s: a catalog asset carries its own weights: --ranker is only for the page's demo catalog", path)
	case tableFile != "":
		return Catalog{}, fmt.Errorf("%s: a catalog asset carries its own intent table: --intent is only for the page's demo catalog", path)
	}
	cat, err := readAsset(b)
	if err != nil {
		return Catalog{}, fmt.Errorf("%s: %w", path, err)
	}
	return cat, nil
}

// readAsset reads a catalog asset's items for the judge and keeps its bytes
// for load_catalog.
func readAsset(b []byte) (Catalog, error) {
	cat := Catalog{Raw: b}
	if catalog.IsBinary(b) {
		c, err := catalog.Decode(b)
		if err != nil {
			return cat, err
		}
		cat.Dataset = c.Dataset
		for i, id := range c.IDs {
			f := make(map[string]string, len(c.MetaNames))
			for k, n := range c.MetaNames {
				f[n] = c.Meta[i][k]
			}
			cat.Items = append(cat.Items, Item{ID: id, Fields: f, Pop: int(math.Round(float64(c.Pop[i])))})
		}
	} else {
		var j struct {
			Dataset   string   `json:"dataset"`
			MetaNames []string `json:"meta_names"`
			Items     []struct {
				ID   string            `json:"id"`
				Meta []json.RawMessage `json:"meta"`
				Pop  float64           `json:"pop"`
			} `json:"items"`
		}
		if err := json.Unmarshal(b, &j); err != nil {
			return cat, err
		}
		cat.Dataset = j.Dataset
		for i, it := range j.Items {
			if len(it.Meta) != len(j.MetaNames) {
				return cat, fmt.Errorf("items[%d].meta: %d values, want one per meta_names (%d)", i, len(it.Meta), len(j.MetaNames))
			}
			f := make(map[string]string, len(j.MetaNames))
			for k, n := range j.MetaNames {
				v, err := metaValue(it.Meta[k])
				if err != nil {
					return cat, fmt.Errorf("items[%d].meta[%d] (%s): %w", i, k, n, err)
				}
				f[n] = v
			}
			cat.Items = append(cat.Items, Item{ID: it.ID, Fields: f, Pop: int(math.Round(it.Pop))})
		}
	}
	if len(cat.Items) == 0 {
		return cat, fmt.Errorf("no items")
	}
	return cat, nil
}

// metaValue is one JSON metadata value as the judge reads it: a string as
// it is, a number as written, null as "", a list of those joined with "|".
func metaValue(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '[' {
		var list []json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil {
			return "", err
		}
		var out []string
		for _, e := range list {
			if e = bytes.TrimSpace(e); len(e) > 0 && e[0] == '[' {
				return "", fmt.Errorf("a list inside a list")
			}
			v, err := metaValue(e)
			if err != nil {
				return "", err
			}
			if v != "" {
				out = append(out, v)
			}
		}
		return strings.Join(out, "|"), nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", err
	}
	switch x := v.(type) {
	case nil:
		return "", nil
	case string:
		return x, nil
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), nil
	}
	return "", fmt.Errorf("want a string, a number or a list of them, got %s", raw)
}
