package catalog

import "sync"

var (
	once  sync.Once
	table []Endpoint
	index map[string]*Endpoint
)

func build() {
	for _, part := range [][]Endpoint{
		systemEndpoints, versionEndpoints(),
		mcEndpoints, mcHistoryEndpoints, vcConfEndpoints, vcMediaEndpoints, vcRTCEndpoints, vcQualityEndpoints, vcTVWallEndpoints,
		amcEndpoints, amcAuditEndpoints, vrsEndpoints, krtcEndpoints, nmsEndpoints, upuEndpoints,
	} {
		table = append(table, part...)
	}
	index = make(map[string]*Endpoint, len(table))
	for i := range table {
		e := &table[i]
		if _, dup := index[e.Name]; dup {
			panic("catalog: duplicate endpoint name " + e.Name)
		}
		index[e.Name] = e
	}
}

// All returns every endpoint of the catalogue.
func All() []Endpoint {
	once.Do(build)
	return table
}

// Lookup finds an endpoint by name.
func Lookup(name string) (*Endpoint, bool) {
	once.Do(build)
	e, ok := index[name]
	return e, ok
}
