package vc

import "encoding/json"

// specDoc is a creation document (engine.Spec.Doc) of the members m.
func specDoc(m map[string]any) []byte {
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return b
}
