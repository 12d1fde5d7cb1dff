package sdk_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/confer-platform/confer/sdk"
)

// The examples talk to the platform named by CONFER_URL with the license
// in CONFER_KEY and CONFER_SECRET and the account in CONFER_USER and
// CONFER_PASSWORD. The tests of this package start a server and set them.

func ExampleNew() {
	c, err := sdk.New(os.Getenv("CONFER_URL"),
		sdk.WithLicense(os.Getenv("CONFER_KEY"), os.Getenv("CONFER_SECRET")),
		sdk.WithAccount(os.Getenv("CONFER_USER"), os.Getenv("CONFER_PASSWORD")),
		sdk.WithAPILevel(3))
	if err != nil {
		fmt.Println(err)
		return
	}
	// The first call that needs a session logs in.
	confs, err := c.VCConfsList(context.Background(), &sdk.VCConfsListRequest{Count: sdk.Int(0)})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("logged in as", c.LoginInfo().Username, "in", c.LoginInfo().Userdomainname)
	fmt.Println(confs.Total >= 0)
	// Output:
	// logged in as admin in default
	// true
}

func ExampleClient_Login() {
	c, err := sdk.New(os.Getenv("CONFER_URL"),
		sdk.WithLicense(os.Getenv("CONFER_KEY"), os.Getenv("CONFER_SECRET")),
		sdk.WithAccount(os.Getenv("CONFER_USER"), "a wrong password"))
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = c.Login(context.Background())
	var pe *sdk.Error
	if errors.As(err, &pe) {
		fmt.Println(errors.Is(err, sdk.ErrLoginFailed), pe.Code, pe.Fields["maxlocknum"])
	}
	// Output:
	// true 10101 5
}

func ExampleClient_VCVersion() {
	c, err := sdk.New(os.Getenv("CONFER_URL")) // version queries need no login
	if err != nil {
		fmt.Println(err)
		return
	}
	v, err := c.VCVersion(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("API-Level", v.APILevel)
	// Output: API-Level 3
}

// exampleClient is the client the following examples share.
func exampleClient() *sdk.Client {
	c, err := sdk.New(os.Getenv("CONFER_URL"),
		sdk.WithLicense(os.Getenv("CONFER_KEY"), os.Getenv("CONFER_SECRET")),
		sdk.WithAccount(os.Getenv("CONFER_USER"), os.Getenv("CONFER_PASSWORD")))
	if err != nil {
		panic(err)
	}
	return c
}

// waitOnline polls the terminals of a conference until n of them are
// online (the platform calls them when the conference starts).
func waitOnline(ctx context.Context, c *sdk.Client, confID string, n int) ([]sdk.VCConfsMtsListReplyMt, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		mts, err := c.VCConfsMtsList(ctx, confID)
		if err != nil {
			return nil, err
		}
		var online []sdk.VCConfsMtsListReplyMt
		for _, mt := range mts.Mts {
			if mt.Online == 1 {
				online = append(online, mt)
			}
		}
		if len(online) >= n {
			return online, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("%d of %d terminals online: %w", len(online), n, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func ExampleClient_MCConfsCreate() {
	ctx := context.Background()
	c := exampleClient()
	// An instant conference that calls two terminals by IP address.
	conf, err := c.MCConfsCreate(ctx, &sdk.MCConfsCreateRequest{
		Name:     sdk.String("Weekly sync"),
		Duration: sdk.Int(60), // minutes
		Bitrate:  sdk.Int(2048),
		CallMode: sdk.Int(2), // call the terminals automatically
		InviteMembers: []sdk.MCConfsCreateRequestInviteMember{
			{Name: "Room A", Account: "10.1.0.1", AccountType: 7, Protocol: 0},
			{Name: "Room B", Account: "10.1.0.2", AccountType: 7, Protocol: 1},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	online, err := waitOnline(ctx, c, conf.ConfID, 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(online), "terminals online")
	if _, err := c.MCConfsDelete(ctx, conf.ConfID); err != nil {
		fmt.Println(err)
	}
	// Output: 2 terminals online
}

func ExampleClient_VCConfsSpeakerUpdate() {
	ctx := context.Background()
	c := exampleClient()
	conf, err := c.MCConfsCreate(ctx, &sdk.MCConfsCreateRequest{
		Name: sdk.String("Town hall"), Duration: sdk.Int(60), Bitrate: sdk.Int(2048), CallMode: sdk.Int(2),
		InviteMembers: []sdk.MCConfsCreateRequestInviteMember{{Name: "Stage", Account: "10.2.0.1", AccountType: 7}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.MCConfsDelete(ctx, conf.ConfID)
	online, err := waitOnline(ctx, c, conf.ConfID, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	// The speaker must be an online terminal of the conference.
	if err := c.VCConfsSpeakerUpdate(ctx, conf.ConfID, &sdk.VCConfsSpeakerUpdateRequest{MtID: online[0].MtID}); err != nil {
		fmt.Println(err)
		return
	}
	sp, err := c.VCConfsSpeakerGet(ctx, conf.ConfID)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("speaker is", online[0].Alias, sp.MtID == online[0].MtID)
	// A terminal that is not in the conference is refused with a typed error.
	err = c.VCConfsSpeakerUpdate(ctx, conf.ConfID, &sdk.VCConfsSpeakerUpdateRequest{MtID: "99"})
	fmt.Println(errors.Is(err, sdk.ErrNotFound))
	// Output:
	// speaker is 10.2.0.1 true
	// true
}

// ExampleClient_VCConfsVMPsCreate starts a picture composition. It has no
// Output line: TestExamples runs it (and skips it while the platform does
// not serve compositions).
func ExampleClient_VCConfsVMPsCreate() {
	ctx := context.Background()
	c := exampleClient()
	conf, err := c.MCConfsCreate(ctx, &sdk.MCConfsCreateRequest{
		Name: sdk.String("Review"), Duration: sdk.Int(60), Bitrate: sdk.Int(2048), CallMode: sdk.Int(2),
		InviteMembers: []sdk.MCConfsCreateRequestInviteMember{
			{Name: "Left", Account: "10.3.0.1", AccountType: 7},
			{Name: "Right", Account: "10.3.0.2", AccountType: 7},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.MCConfsDelete(ctx, conf.ConfID)
	online, err := waitOnline(ctx, c, conf.ConfID, 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	// A custom composition of two pictures side by side (layout 2).
	req := &sdk.VCConfsVMPsCreateRequest{Mode: 1, Layout: 2, Broadcast: 1, VoiceHint: 0, ShowMtName: 1}
	for i, mt := range online {
		req.Members = append(req.Members, sdk.VCConfsVMPsCreateRequestMember{
			ChnIdx: i, MemberType: sdk.Int(1), MtID: sdk.String(mt.MtID)})
	}
	if err := c.VCConfsVMPsCreate(ctx, conf.ConfID, req); err != nil {
		fmt.Println(err)
		return
	}
	vmp, err := c.VCConfsVMPsGet(ctx, conf.ConfID, "1")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("composition: layout", vmp.Layout, "with", len(vmp.Members), "pictures")
}

// ExampleClient_Subscribe prints the events of one conference as they are
// pushed. It has no Output line: TestExamples runs it (and skips it while
// the platform has no push endpoint).
func ExampleClient_Subscribe() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := exampleClient()
	sub, err := c.Subscribe(ctx, "/confs/**") // every conference of the user domain
	if err != nil {
		fmt.Println(err)
		return
	}
	defer sub.Close()
	conf, err := c.MCConfsCreate(ctx, &sdk.MCConfsCreateRequest{
		Name: sdk.String("Pushed"), Duration: sdk.Int(60), Bitrate: sdk.Int(2048), CallMode: sdk.Int(2),
		InviteMembers: []sdk.MCConfsCreateRequestInviteMember{{Name: "Lobby", Account: "10.4.0.1", AccountType: 7}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.MCConfsDelete(ctx, conf.ConfID)
	for ev := range sub.Events() {
		if ev.ConfID() != conf.ConfID {
			continue
		}
		// After an update, GET /api/v1/vc + ev.Resource returns the new state.
		fmt.Println(ev.Method, ev.Resource == "/confs/"+conf.ConfID)
		if ev.Resource == "/confs/"+conf.ConfID {
			break
		}
	}
	if err := sub.Err(); err != nil {
		fmt.Println(err)
	}
}
