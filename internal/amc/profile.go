package amc

import (
	"encoding/json"

	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/store"
)

// profile is the store's profile object of an account: the account
// fields that have no column of their own. A member the account never
// set is absent (the reply shows its default); the members are in name
// order, so that the stored bytes are those of a sorted JSON object, as
// before (amc.public_groups' version hashes them).
type profile struct {
	DateOfBirth    model.Opt[string] `json:"date_of_birth,omitzero"`
	ExtNum         model.Opt[string] `json:"ext_num,omitzero"`
	Fax            model.Opt[string] `json:"fax,omitzero"`
	JobNum         model.Opt[string] `json:"job_num,omitzero"`
	Limited        model.Opt[int]    `json:"limited,omitzero"`
	OfficeLocation model.Opt[string] `json:"office_location,omitzero"`
	Sex            model.Opt[int]    `json:"sex,omitzero"`
}

// defaultProfile is the profile of a new account: every member at its
// default (sex 1, the others empty).
var defaultProfile = profile{
	DateOfBirth: model.Some(""), ExtNum: model.Some(""), Fax: model.Some(""), JobNum: model.Some(""),
	Limited: model.Some(0), OfficeLocation: model.Some(""), Sex: model.Some(1),
}

// profileOf reads an account's profile.
func profileOf(a store.Account) (profile, error) {
	var p profile
	if len(a.Profile) == 0 {
		return p, nil
	}
	return p, json.Unmarshal(a.Profile, &p)
}

// str is the member of a string field of the profile (fieldRules).
func (p *profile) str(name string) *model.Opt[string] {
	switch name {
	case "date_of_birth":
		return &p.DateOfBirth
	case "ext_num":
		return &p.ExtNum
	case "fax":
		return &p.Fax
	case "job_num":
		return &p.JobNum
	case "office_location":
		return &p.OfficeLocation
	}
	return nil
}
