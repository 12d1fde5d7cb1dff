package vc

import "strconv"

// listCacheMax bounds the encoded list items kept per node
// (compat.Items): one per running conference and release seen, so a
// platform of 1,000 running conferences fits with room to spare.
const listCacheMax = 8192

// listBody writes the list envelope around encoded items: the bytes that
// wire.WriteJSON(wire.Success({"confs": ..., "total": ...})) writes, the
// envelope first and the other keys sorted.
func listBody(items [][]byte, size, total int) []byte {
	b := make([]byte, 0, size+64)
	b = append(b, `{"success":1,"confs":[`...)
	for i, it := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, it...)
	}
	b = append(b, `],"total":`...)
	b = strconv.AppendInt(b, int64(total), 10)
	return append(b, '}')
}
