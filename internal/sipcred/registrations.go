package sipcred

import (
	"context"
	"encoding/json"
	"time"

	"github.com/confer-platform/confer/internal/store"
)

// Registrations of SIP terminals are records of kind sip_registration (id
// the E.164 number, in the no-domain Domain), due when they expire; the
// registrar of internal/sip writes them, every node reads them, and
// presence (upu, nms) lists them (docs/sip.md "Registrar").
const (
	KindRegistration = "sip_registration"
	RegActive        = "active"
)

// Registration is a terminal's binding.
type Registration struct {
	E164        string    `json:"e164"`
	Contact     string    `json:"contact"`   // the Contact URI it registered
	Source      string    `json:"source"`    // where the REGISTER came from (host:port): calls go there (NAT)
	Transport   string    `json:"transport"` // UDP or TCP
	AccountMoid string    `json:"account_moid"`
	DomainMoid  string    `json:"domain_moid"`
	Expires     time.Time `json:"expires"`
	Since       time.Time `json:"since"` // the first REGISTER of the binding
	UserAgent   string    `json:"user_agent,omitempty"`
}

// Live returns the registrations of a user domain that have not expired
// at now, by account moid.
func Live(ctx context.Context, st store.Store, domain string, now time.Time) (map[string]Registration, error) {
	recs, _, err := st.ListRecords(ctx, store.RecordQuery{Kind: KindRegistration, DomainMoid: Domain, States: []string{RegActive}})
	if err != nil {
		return nil, err
	}
	out := map[string]Registration{}
	for _, rec := range recs {
		var r Registration
		if json.Unmarshal(rec.Data, &r) != nil || r.DomainMoid != domain || !r.Expires.After(now) {
			continue
		}
		out[r.AccountMoid] = r
	}
	return out, nil
}
