package sfu

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pion/turn/v5"
	"github.com/pion/webrtc/v4"
)

// A client allowed only relayed candidates (a firewall that blocks direct
// UDP) reaches the SFU through a TURN server taken from the state's
// ice_servers, as the join page does.
func TestTURNRelay(t *testing.T) {
	t.Parallel()
	udp, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := turn.NewServer(turn.ServerConfig{
		Realm: "confer.test",
		AuthHandler: func(ra *turn.RequestAttributes) (string, []byte, bool) {
			return ra.Username, turn.GenerateAuthKey(ra.Username, ra.Realm, "secret"), ra.Username == "confer"
		},
		PacketConnConfigs: []turn.PacketConnConfig{{PacketConn: udp,
			RelayAddressGenerator: &turn.RelayAddressGeneratorStatic{RelayAddress: net.ParseIP("127.0.0.1"), Address: "127.0.0.1"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	turnURL := fmt.Sprintf("turn:%s?transport=udp", udp.LocalAddr())
	rg := newRig(t, func(c *Config) {
		c.ICEServers = []webrtc.ICEServer{{URLs: []string{turnURL}, Username: "confer", Credential: "secret"}}
		c.DisconnectedTimeout, c.FailedTimeout = 4*time.Second, 4*time.Second
	})
	p := rg.publish("c1", idA, false, "")
	p.run(idA, &sendOpts{level: 127})

	req, _ := http.NewRequest(http.MethodOptions, rg.srv.URL+"/rtc/whip/c1", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if l := resp.Header.Get("Link"); !strings.Contains(l, turnURL) || !strings.Contains(l, `rel="ice-server"`) || !strings.Contains(l, `username="confer"`) {
		t.Fatalf("OPTIONS Link = %q, want the TURN server as rel=ice-server", l)
	}
	st := rg.state(t, "c1", "")
	if len(st.ICEServers) != 1 || st.ICEServers[0].URLs[0] != turnURL {
		t.Fatalf("state ice_servers = %+v, want the TURN server", st.ICEServers)
	}
	pc, err := clientAPI(t).NewPeerConnection(webrtc.Configuration{
		ICEServers: st.ICEServers, ICETransportPolicy: webrtc.ICETransportPolicyRelay})
	if err != nil {
		t.Fatal(err)
	}
	pair := rg.watchVia(pc, "/rtc/whep/c1?mt_id="+p.mtID)
	if pair.Local.Typ != webrtc.ICECandidateTypeRelay {
		t.Fatalf("selected pair %s, want a relayed local candidate", pair)
	}
}
