// Package audit holds an entry of the stored audit trail of operators'
// actions (docs/operations.md "Audit trail"): the server writes one per
// audited request (internal/server audit_trail.go), amc lists them
// (GET /api/v1/amc/audit) and the console shows them.
package audit

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// State is the state of every entry's record.
const State = "logged"

// Entry is one audited action.
type Entry struct {
	Time        time.Time         `json:"time"`
	Account     string            `json:"account"`      // user name
	AccountMoid string            `json:"account_moid"` // the acting account
	Action      string            `json:"action"`       // catalogue endpoint, e.g. vc.confs.mts.mute.update
	Params      map[string]string `json:"params,omitempty"`
	Client      string            `json:"client"`     // the connection's peer address
	ErrorCode   int               `json:"error_code"` // 0 done, else the refusal's code
}

// seq orders the entries of one node that share a time (a coarse or
// fake clock): the store lists by time, then by id.
var seq atomic.Uint64

// Record is e as the store keeps it in user domain domainMoid until
// e.Time+keep. Ids sort by time, then by the node's sequence; a random
// part keeps the ids of two nodes apart.
func Record(domainMoid string, e Entry, keep time.Duration) (store.Record, error) {
	data, err := json.Marshal(e)
	if err != nil {
		return store.Record{}, err
	}
	var n [6]byte
	_, _ = rand.Read(n[:])
	return store.Record{Kind: record.KindAudit, ID: fmt.Sprintf("%019d-%012d-%s", e.Time.UnixNano(), seq.Add(1), hex.EncodeToString(n[:])),
		DomainMoid: domainMoid, OwnerMoid: e.AccountMoid, State: State, DueAt: e.Time.Add(keep),
		Data: data, CreatedAt: e.Time, UpdatedAt: e.Time}, nil
}

// Decode reads an entry's record.
func Decode(r store.Record) (Entry, error) {
	var e Entry
	err := json.Unmarshal(r.Data, &e)
	return e, err
}
