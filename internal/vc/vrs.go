package vc

import (
	"context"
	"crypto/sha1"
	"fmt"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/model"
)

// The recording servers of the user domain (reference 05 item 96
// "获取用户域的vrs地址列表"; vrs_id from 5.2.0.2.0). Confer simulates one
// recording server per user domain: recordings and playback run on it and
// programs are stored in the domain. Its vrs_id is fixed, derived from the
// domain's moid in the shape of the reference's ids (a UUID), so that it
// needs no storage and stays the same across restarts and nodes; its
// address is the local host at the reference's port 8070, and it has no
// network operator.

// vrsIDOf is the vrs_id of a user domain's recording server.
func vrsIDOf(domainMoid string) string {
	h := sha1.Sum([]byte("confer-vrs:" + domainMoid))
	return fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}

// vrsList answers the domain's recording server.
func vrsList(_ context.Context, r *api.Request) (*model.VCVRSListReply, error) {
	return &model.VCVRSListReply{VRS: []model.VCVRSListReplyVRSItem{{
		IP: "127.0.0.1", Port: 8070, VRSID: vrsIDOf(r.Principal.DomainMoid),
	}}}, nil
}
