package intentlab

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// demoItem is one item of web/catalog/games-demo.json (the fields the page
// ranks with; `recmem demo-catalog` writes the file).
type demoItem struct {
	ID         string   `json:"id"`
	Title      string   `json:"title"`
	Platform   string   `json:"platform"`
	Kind       string   `json:"kind"`
	Format     string   `json:"format"`
	Series     string   `json:"series"`
	Genre      []string `json:"genre"`
	Audience   []string `json:"audience"`
	Popularity int      `json:"popularity"`
}

// ReadPageCatalog reads the catalog the page ranks with: the demo catalog
// catFile (web/catalog/games-demo.json), the ranker spec specFile and the
// intent table tableFile, which default to games-ranker.json and
// games-intent.json beside the catalog. Its JSON method gives what the page
// loads. Errors name the file at fault. Linear in the files.
func ReadPageCatalog(catFile, specFile, tableFile string) (Catalog, error) {
	cat := Catalog{Dataset: "games-demo"}
	if specFile == "" {
		specFile = filepath.Join(filepath.Dir(catFile), "games-ranker.json")
	}
	if tableFile == "" {
		tableFile = filepath.Join(filepath.Dir(catFile), "games-intent.json")
	}
	b, err := os.ReadFile(catFile)
	if err != nil {
		return cat, err
	}
	var demo struct {
		Items []demoItem `json:"items"`
	}
	if err := json.Unmarshal(b, &demo); err != nil {
		return cat, fmt.Errorf("%s: %w", catFile, err)
	}
	if len(demo.Items) == 0 {
		return cat, fmt.Errorf("%s: no items", catFile)
	}
	if b, err = os.ReadFile(specFile); err == nil {
		err = json.Unmarshal(b, &cat.Spec)
	}
	if err != nil {
		return cat, fmt.Errorf("ranker spec: %w", err)
	}
	if cat.Intent, err = os.ReadFile(tableFile); err != nil {
		return cat, fmt.Errorf("intent table: %w", err)
	}
	for _, it := range demo.Items {
		cat.Items = append(cat.Items, Item{ID: it.ID, Pop: it.Popularity, Fields: map[string]string{
			"title": it.Title, "platform": it.Platform, "kind": it.Kind, "format": it.Format, "series": it.Series,
			"genre": strings.Join(it.Genre, "|"), "audience": strings.Join(it.Audience, "|")}})
	}
	return cat, nil
}
