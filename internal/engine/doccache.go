package engine

import (
	"bytes"
	"maps"
	"sync"

	"github.com/confer-platform/confer/internal/store"
)

// docCache keeps the decoded document of each conference read or written
// on this node with the stored bytes it stands for, so that a read whose
// record carries the same bytes decodes nothing (a speaker change read the
// conference, decoded it, changed one field and wrote it back: the next
// change decoded it again; docs/benchmarks.md, "Speaker changes, second
// pass"). An entry is used only when the bytes just read are the bytes it
// was made from, so a write on any node, or a conference ended and its
// number reused, is never answered from it: the record is always read.
// Readers get a deep copy (Conference.Doc is theirs to change), except
// take, which hands the entry's own document over and drops the entry.
type docCache struct {
	// mu is held for reading while get copies an entry: take hands an
	// entry's own document to a writer, who changes it (encodeConf), so a
	// copy made after the lock was released raced with that writer.
	mu sync.RWMutex
	m  map[string]docEntry // by domain + "/" + conf_id
}

type docEntry struct {
	data []byte
	// conf is the conference decoded from data (its document and own
	// members, roles.go); never handed out: copies only.
	conf Conference
	// rec is the record data was read or written as (its version, state
	// and creation time), for kept; rec.Data is data.
	rec store.Record
}

// docCacheMax bounds the entries; past it the cache starts again (a node
// holds at most its running conferences' documents, MaxConfs).
const docCacheMax = 4096

func docKey(domain, id string) string { return domain + "/" + id }

// get returns a copy of the document kept for key when it was made from
// data.
func (dc *docCache) get(key string, data []byte) (Conference, bool) {
	dc.mu.RLock()
	defer dc.mu.RUnlock()
	e, ok := dc.m[key]
	if !ok || !bytes.Equal(e.data, data) {
		return Conference{}, false
	}
	return e.conf.clone(), true
}

// take returns the record and the document last read or written on this
// node for key, without reading anything, and drops the entry: the
// document is the caller's, not a copy (the speaker path copied it twice,
// here and in update's normalize). It may be stale (another node's
// write), so it may only be the base of a write the store refuses unless
// the stored version and creation time are still the kept ones
// (store.GuardedWriter's SwapRecordWhile; Conferences.Kept); the write
// keeps its result again (update), a read the bytes it reads.
func (dc *docCache) take(key string) (Conference, bool) {
	dc.mu.Lock()
	e, ok := dc.m[key]
	if ok && e.rec.Version != 0 {
		delete(dc.m, key)
	}
	dc.mu.Unlock()
	if !ok || e.rec.Version == 0 {
		return Conference{}, false
	}
	c := e.conf
	c.Rec = e.rec
	return c, true
}

// put keeps c, which must be what decoding rec.Data gives (newConference)
// and nobody else's.
func (dc *docCache) put(key string, rec store.Record, c Conference) {
	dc.mu.Lock()
	if dc.m == nil || len(dc.m) >= docCacheMax {
		dc.m = make(map[string]docEntry)
	}
	dc.m[key] = docEntry{data: rec.Data, conf: c, rec: rec}
	dc.mu.Unlock()
}

// forget drops key's entry (a conference ended, or a document that
// normalize cannot vouch for).
func (dc *docCache) forget(key string) {
	dc.mu.Lock()
	delete(dc.m, key)
	dc.mu.Unlock()
}

// clone copies a conference's document and own members.
func (c Conference) clone() Conference {
	c.Doc = c.Doc.clone()
	return c.cloneOwn()
}

// cloneOwn copies a conference's own members (the slices and pointers
// among them), sharing its document.
func (c Conference) cloneOwn() Conference {
	if c.VIPs != nil {
		c.VIPs = append([]VIP{}, c.VIPs...)
	}
	if c.Links != nil {
		c.Links = append([]CascadeLink{}, c.Links...)
	}
	if c.Superior != nil {
		up := *c.Superior
		c.Superior = &up
	}
	if c.HDUAliases != nil {
		c.HDUAliases = maps.Clone(c.HDUAliases)
	}
	c.Mix, c.HDUPoll = c.Mix.clone(), c.HDUPoll.clone()
	c.SelfVMPs, c.HDUVMPs = cloneSelfVMPs(c.SelfVMPs), cloneSelfVMPs(c.HDUVMPs)
	c.HDUs, c.VMP = cloneHDUs(c.HDUs), c.VMP.clone()
	c.Poll, c.UploadPoll, c.ChairmanPoll = c.Poll.clone(), c.UploadPoll.clone(), c.ChairmanPoll.clone()
	c.Recorders = cloneRecorders(c.Recorders)
	c.VCState = c.VCState.vcClone()
	return c
}
