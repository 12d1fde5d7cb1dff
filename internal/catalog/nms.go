package catalog

import "github.com/confer-platform/confer/internal/release"

// Network management (seed 001 "Network management (nms)" table and
// "Versioning"; reference 06-nms-network-management.md). Every endpoint is a
// GET with its parameters in the query string. The version query is in
// system.go.
var nmsEndpoints = []Endpoint{
	{
		Name: "nms.domains.list", Module: NMS, Method: "GET", Path: "/api/v1/nms/domains",
		Summary: "List all domains", MinLevel: 1, Since: release.R5_0_0_4_1, Style: Query,
		Reply: []Param{
			{Name: "domains", Kind: Array, Elem: Object, Doc: "domains", Fields: []Param{
				{Name: "moid", Kind: String, Doc: "domain moid"},
				{Name: "parent_moid", Kind: String, Doc: "moid of the parent domain"},
				{Name: "type", Kind: String, EnumS: []string{"kernel", "service", "platform", "user"}, Doc: "domain type: kernel, service, platform or user"},
				{Name: "name", Kind: String, Doc: "domain name"},
			}},
		},
	},
	{
		Name: "nms.platform_domains.physicals.list", Module: NMS, Method: "GET", Path: "/api/v1/nms/platform_domains/{domain_moid}/physicals",
		Summary: "List the physical servers of a platform domain", MinLevel: 1, Since: release.R5_0_0_4_1, Style: Query,
		Reply: []Param{
			{Name: "physicals", Kind: Array, Elem: Object, Doc: "physical servers", Fields: nmsPhysicalFields(false)},
		},
	},
	{
		Name: "nms.physicals.logicals.list", Module: NMS, Method: "GET", Path: "/api/v1/nms/physicals/{p_server_moid}/logicals",
		Summary: "List the logical servers on a physical server", MinLevel: 1, Since: release.R5_0_0_4_1, Style: Query,
		Reply: []Param{
			{Name: "logicals", Kind: Array, Elem: Object, Doc: "logical servers", Fields: nmsLogicalFields()},
		},
	},
	{
		Name: "nms.platform_domains.logicals.list", Module: NMS, Method: "GET", Path: "/api/v1/nms/platform_domains/{domain_moid}/logicals",
		Summary: "List the logical servers of a platform domain", MinLevel: 1, Since: release.R5_0_0_4_1, Style: Query,
		Reply: []Param{
			{Name: "logicals", Kind: Array, Elem: Object, Doc: "logical servers", Fields: nmsLogicalFields()},
		},
	},
	{
		// Since: seed 001 lists this terminal list with the physical-server
		// detail row (5.0.0.4.1); A1 (5.0.0.4.1 新增) lists it there too.
		Name: "nms.user_domains.terminals.list", Module: NMS, Method: "GET", Path: "/api/v1/nms/user_domains/{domain_moid}/terminals",
		Summary: "List the terminals of a user domain", MinLevel: 1, Since: release.R5_0_0_4_1, Style: Query,
		Params: nmsPaging("terminal"),
		Reply: []Param{
			{Name: "total_count", Kind: Int, Doc: "total number of terminals"},
			{Name: "terminals", Kind: Array, Elem: Object, Doc: "terminals", Fields: []Param{
				{Name: "moid", Kind: String, Doc: "terminal moid"},
				{Name: "domain_moid", Kind: String, Doc: "moid of the terminal's domain"},
				{Name: "e164", Kind: String, Doc: "terminal E164 number"},
				{Name: "name", Kind: String, Doc: "terminal name"},
				{Name: "online", Kind: String, EnumS: []string{"online", "offline"}, Doc: "online state: online or offline"},
			}},
		},
	},
	{
		Name: "nms.physicals.detail.get", Module: NMS, Method: "GET", Path: "/api/v1/nms/physicals/{p_server_moid}/detail",
		Summary: "Detail of a physical server", MinLevel: 1, Since: release.R5_0_0_4_1, Style: Query,
		Reply: nmsPhysicalFields(true),
	},
	{
		Name: "nms.mediaresources.portinfo.get", Module: NMS, Method: "GET", Path: "/api/v1/nms/mediaresources/{mediaresource_moid}/portinfo",
		Summary: "Port resources reported by a media-resource server", MinLevel: 1, Since: release.R5_0_0_4_1, Style: Query,
		Reply: []Param{
			{Name: "total_port", Kind: Int, Doc: "total number of ports"},
			{Name: "used_port", Kind: Int, Doc: "number of used ports"},
		},
	},
	{
		Name: "nms.old_terminals.list", Module: NMS, Method: "GET", Path: "/api/v1/nms/old_terminals",
		Summary: "List unmanaged terminals", MinLevel: 1, Since: release.R5_1_0_2_0, Style: Query,
		Params: nmsPaging("unmanaged terminal"),
		Reply: []Param{
			{Name: "total_count", Kind: Int, Doc: "total number of unmanaged terminals"},
			{Name: "old_terminals", Kind: Array, Elem: Object, Doc: "unmanaged terminals", Fields: []Param{
				{Name: "e164", Kind: String, Doc: "E164 number"},
				{Name: "type", Kind: String, Doc: "terminal type"},
				{Name: "api_level", Kind: String, Doc: "terminal version, e.g. V5.1"},
				{Name: "ip", Kind: String, Doc: "terminal IP"},
				{Name: "online", Kind: String, EnumS: []string{"online", "offline"}, Doc: "online state: online or offline"},
			}},
		},
	},
	{
		Name: "nms.service_domains.terminal_online_statistic.get", Module: NMS, Method: "GET", Path: "/api/v1/nms/service_domains/{domain_moid}/terminal_online_statistic",
		Summary: "Terminal online statistics of a service domain", MinLevel: 1, Since: release.R5_0_0_4_1, Style: Query,
		Params: []Param{
			{Name: "period", Kind: String, EnumS: []string{"lastweek", "lastmonth", "lastthreemonth", "lasthalfyear", "lastyear"},
				Doc: "statistics period: lastweek, lastmonth, lastthreemonth, lasthalfyear or lastyear (alternative to start_time/end_time)"},
			{Name: "start_time", Kind: String, Doc: "start of the statistics (alternative to period)"},
			{Name: "end_time", Kind: String, Doc: "end of the statistics (alternative to period)"},
			{Name: "start", Kind: Int, Doc: "start position of the list, default 0"},
			{Name: "count", Kind: Int, Doc: "number of entries, default 10"},
		},
		Reply: []Param{
			{Name: "total_count", Kind: Int, Doc: "total number of statistics entries"},
			{Name: "statistic", Kind: Array, Elem: Object, Doc: "terminal online data", Fields: []Param{
				{Name: "domain_moid", Kind: String, Doc: "moid of the user domain counted"},
				{Name: "xmpp_online", Kind: Int, Doc: "XMPP terminals online"},
				{Name: "sip_online", Kind: Int, Doc: "SIP terminals online"},
				{Name: "monitor_online", Kind: Int, Doc: "monitors online"},
				{Name: "h323_online", Kind: Int, Doc: "H.323 terminals online"},
				{Name: "statistic_time", Kind: String, Doc: "time of the statistics"},
			}},
		},
	},
	{
		// The reference's reply example shows total_count/used_count; its
		// reply table (followed here) names total_port/used_port.
		Name: "nms.platform_domains.mediaresources.get", Module: NMS, Method: "GET", Path: "/api/v1/nms/platform_domains/{domain_moid}/mediaresources",
		Summary: "Port resource statistics of a platform domain", MinLevel: 1, Since: release.R5_1_0_2_0, Style: Query,
		Reply: []Param{
			{Name: "total_port", Kind: Int, Doc: "total number of platform ports"},
			{Name: "used_port", Kind: Int, Doc: "number of used platform ports"},
		},
	},
	{
		Name: "nms.servers.unrepaired_warnings.list", Module: NMS, Method: "GET", Path: "/api/v1/nms/servers/{server_moid}/unrepaired_warnings",
		Summary: "Unrepaired alarms of a server", MinLevel: 1, Since: release.R5_1_0_2_0, Style: Query,
		Reply: []Param{
			{Name: "unrepaired_warnings", Kind: Array, Elem: Object, Doc: "unrepaired server alarms", Fields: []Param{
				{Name: "device_moid", Kind: String, Doc: "server moid"},
				{Name: "device_name", Kind: String, Doc: "server name"},
				{Name: "device_type", Kind: String, Doc: "server type"},
				{Name: "device_ip", Kind: String, Doc: "server IP"},
				{Name: "domain_moid", Kind: String, Doc: "moid of the server's platform domain"},
				{Name: "domain_name", Kind: String, Doc: "name of the server's platform domain"},
				{Name: "machine_room_moid", Kind: String, Doc: "virtual machine-room moid (from 5.2.0.2.0)"},
				{Name: "machine_room_name", Kind: String, Doc: "virtual machine-room name (from 5.2.0.2.0)"},
				{Name: "warning_level", Kind: String, EnumS: []string{"critical", "important", "normal"}, Doc: "alarm level: critical, important or normal"},
				{Name: "description", Kind: String, Doc: "alarm description"},
				{Name: "start_time", Kind: String, Doc: "time the alarm was raised"},
			}},
		},
	},
	{
		Name: "nms.terminals.unrepaired_warnings.list", Module: NMS, Method: "GET", Path: "/api/v1/nms/terminals/{terminal_moid}/unrepaired_warnings",
		Summary: "Unrepaired alarms of a terminal", MinLevel: 1, Since: release.R5_1_0_2_0, Style: Query,
		Reply: []Param{
			{Name: "unrepaired_warnings", Kind: Array, Elem: Object, Doc: "unrepaired terminal alarms", Fields: []Param{
				{Name: "device_moid", Kind: String, Doc: "terminal moid"},
				{Name: "device_name", Kind: String, Doc: "terminal name"},
				{Name: "device_type", Kind: String, Doc: "terminal type"},
				{Name: "device_ip", Kind: String, Doc: "terminal IP"},
				{Name: "device_e164", Kind: String, Doc: "terminal E164 number"},
				{Name: "domain_moid", Kind: String, Doc: "moid of the terminal's user domain"},
				{Name: "domain_name", Kind: String, Doc: "name of the terminal's user domain"},
				// The reference's table says int; its description and example
				// are strings.
				{Name: "warning_level", Kind: String, EnumS: []string{"critical", "important", "normal"}, Doc: "alarm level: critical, important or normal"},
				{Name: "description", Kind: String, Doc: "alarm description"},
				{Name: "start_time", Kind: String, Doc: "time the alarm was raised"},
			}},
		},
	},
	{
		Name: "nms.service_domains.meetings.list", Module: NMS, Method: "GET", Path: "/api/v1/nms/service_domains/{service_moid}/meetings",
		Summary: "Conferences being held in a service domain", MinLevel: 1, Since: release.R5_1_0_2_0, Style: Query,
		Reply: []Param{
			{Name: "meeting", Kind: Array, Elem: Object, Doc: "conferences being held", Fields: nmsMeetingFields()},
		},
	},
	{
		// Seed 001 marks the method "?"; the reference says GET.
		Name: "nms.meetings.terminal_detail.get", Module: NMS, Method: "GET", Path: "/api/v1/nms/meetings/{conf_id}/terminal_detail",
		Summary: "Detail of the terminals of a conference", MinLevel: 1, Since: release.R5_1_0_2_0, Style: Query,
		Reply: []Param{
			{Name: "terminals", Kind: Array, Elem: Object, Doc: "terminals", Fields: []Param{
				{Name: "isp", Kind: Int, Enum: []int{0, 1, 2, 3, 4, 5, 6, 7, 8},
					Doc: "carrier: 1 China Telecom, 2 China Unicom, 3 China Mobile, 4 cable, 5 China Tietong, 6 overseas, 7 local, 8 other, 0 unknown"},
				{Name: "nat_ip", Kind: String, Doc: "NAT IP"},
				{Name: "ip", Kind: String, Doc: "terminal IP"},
				{Name: "version", Kind: String, Doc: "software version"},
				{Name: "type", Kind: String, Doc: "terminal model"},
				{Name: "name", Kind: String, Doc: "terminal name"},
				{Name: "e164", Kind: String, Doc: "terminal number"},
				{Name: "bitrate", Kind: Int, Doc: "call bit rate"},
				{Name: "primary_video", Kind: Array, Elem: Object, Doc: "main video channels", Fields: nmsChannelFields(true)},
				{Name: "dual_video", Kind: Array, Elem: Object, Doc: "content-sharing video channels", Fields: nmsChannelFields(false)},
			}},
		},
	},
}

// nmsPaging is the start/count pair of the nms lists.
func nmsPaging(what string) []Param {
	return []Param{
		{Name: "start", Kind: Int, Doc: "start position of the " + what + " list, 0 is the first; default 0"},
		{Name: "count", Kind: Int, Doc: "number of " + what + "s from start; default 10"},
	}
}

// nmsPhysicalFields is a physical server; detail adds the names of its
// domain and machine room.
func nmsPhysicalFields(detail bool) []Param {
	ps := []Param{
		{Name: "card_pos", Kind: String, Doc: "board position"},
		{Name: "moid", Kind: String, Doc: "physical server moid"},
		{Name: "guid", Kind: String, Doc: "physical server guid"},
	}
	if detail {
		ps = append(ps, Param{Name: "domain_name", Kind: String, Doc: "name of the platform domain (from 5.2.0.2.0)"})
	}
	ps = append(ps, Param{Name: "machine_room_moid", Kind: String, Doc: "virtual machine-room moid (from 5.2.0.2.0)"})
	if detail {
		ps = append(ps, Param{Name: "machine_room_name", Kind: String, Doc: "virtual machine-room name (from 5.2.0.2.0)"})
	}
	return append(ps,
		Param{Name: "domain_moid", Kind: String, Doc: "moid of the server's domain"},
		Param{Name: "name", Kind: String, Doc: "server name"},
		Param{Name: "type", Kind: String, Doc: "server type"},
		Param{Name: "location", Kind: String, Doc: "geographic location (province name)"},
		Param{Name: "ip", Kind: String, Doc: "IP addresses, separated by ';'"},
		Param{Name: "cpu", Kind: String, Doc: "CPU usage (%)"},
		Param{Name: "portin", Kind: String, Doc: "total inbound network traffic (k)"},
		Param{Name: "portout", Kind: String, Doc: "total outbound network traffic (k)"},
		Param{Name: "disk", Kind: String, Doc: "disk usage (%)"},
		Param{Name: "memory", Kind: String, Doc: "memory usage (%)"},
		Param{Name: "warning_level", Kind: String, Doc: "alarm level: critical, important, normal; empty without alarm"},
		Param{Name: "online", Kind: String, EnumS: []string{"online", "offline"}, Doc: "online state: online or offline"},
	)
}

// nmsLogicalFields is a logical server.
func nmsLogicalFields() []Param {
	return []Param{
		{Name: "moid", Kind: String, Doc: "logical server moid"},
		{Name: "guid", Kind: String, Doc: "logical server guid"},
		{Name: "machine_room_moid", Kind: String, Doc: "virtual machine-room moid (from 5.2.0.2.0)"},
		{Name: "p_server_moid", Kind: String, Doc: "moid of the physical server it runs on"},
		{Name: "domain_moid", Kind: String, Doc: "moid of the server's domain"},
		{Name: "name", Kind: String, Doc: "server name"},
		{Name: "type", Kind: String, Doc: "server type: sus, xmpp, rabbitmq, zookeeper..."},
		{Name: "backup_state", Kind: String, Doc: "master or slave; empty without backup"},
		{Name: "ip", Kind: String, Doc: "IP addresses of the physical server, separated by ';'"},
		{Name: "warning_level", Kind: String, Doc: "alarm level: critical, important, normal; empty without alarm"},
		{Name: "online", Kind: String, EnumS: []string{"online", "offline"}, Doc: "online state: online or offline"},
	}
}

// nmsMeetingFields is a conference of the service-domain list: traditional
// and port conferences carry name ... meeting_device, point-to-point calls
// (conf_type 2) the caller_ and callee_ fields.
func nmsMeetingFields() []Param {
	return []Param{
		{Name: "conf_type", Kind: Int, Enum: []int{0, 1, 2}, Doc: "0 traditional conference, 1 port conference, 2 point-to-point call"},
		{Name: "name", Kind: String, Doc: "conference name"},
		{Name: "e164", Kind: String, Doc: "conference E164 number"},
		{Name: "bitrate", Kind: Int, Doc: "conference bit rate"},
		{Name: "domain_moid", Kind: String, Doc: "moid of the domain"},
		{Name: "start_time", Kind: String, Doc: "start time"},
		{Name: "end_time", Kind: String, Doc: "end time"},
		{Name: "meeting_terminals", Kind: Array, Elem: Object, Doc: "hardware and software terminals in the conference", Fields: []Param{
			{Name: "domain_moid", Kind: String, Doc: "moid of the domain"},
			{Name: "name", Kind: String, Doc: "terminal name"},
			{Name: "version", Kind: String, Doc: "terminal version"},
			{Name: "type", Kind: String, Doc: "terminal type"},
			{Name: "moid", Kind: String, Doc: "terminal moid"},
			{Name: "e164", Kind: String, Doc: "terminal E164 number"},
			{Name: "ip", Kind: String, Doc: "terminal IP"},
		}},
		{Name: "telephone_terminals", Kind: Array, Elem: String, Doc: "telephone participants"},
		{Name: "cascades", Kind: Array, Elem: Object, Doc: "cascaded conferences", Fields: []Param{
			{Name: "name", Kind: String, Doc: "conference name"},
			{Name: "e164", Kind: String, Doc: "conference number"},
			{Name: "type", Kind: Int, Enum: []int{0, 1}, Doc: "0 lower-level conference, 1 upper-level conference"},
		}},
		{Name: "ip_e164", Kind: Array, Elem: String, Doc: "IP/E164 of third-party terminals"},
		{Name: "meeting_device", Kind: Array, Elem: Object, Doc: "conference peripherals", Fields: []Param{
			{Name: "type", Kind: String, Doc: "device type"},
			{Name: "ip", Kind: String, Doc: "device IP"},
			{Name: "mixer_count", Kind: Int, Doc: "number of audio mixers"},
			{Name: "abas_count", Kind: Int, Doc: "number of audio adapters"},
			{Name: "vbas_count", Kind: Int, Doc: "number of video adapters"},
			{Name: "vmp_count", Kind: Int, Doc: "number of picture compositors"},
		}},
		{Name: "caller_name", Kind: String, Doc: "calling terminal name"},
		{Name: "caller_type", Kind: String, Doc: "calling terminal type"},
		{Name: "caller_e164", Kind: String, Doc: "calling terminal E164"},
		{Name: "caller_domain_moid", Kind: String, Doc: "moid of the calling terminal's domain"},
		{Name: "callee_name", Kind: String, Doc: "called terminal name"},
		{Name: "callee_type", Kind: String, Doc: "called terminal type"},
		{Name: "callee_e164", Kind: String, Doc: "called terminal E164"},
		{Name: "callee_domain_moid", Kind: String, Doc: "moid of the called terminal's domain"},
	}
}

// nmsChannelFields is one video channel of the conference terminal detail;
// the main video also carries audio.
func nmsChannelFields(audio bool) []Param {
	ps := []Param{
		{Name: "chan_id", Kind: Int, Doc: "channel number"},
		{Name: "up_or_down", Kind: Int, Enum: []int{0, 1}, Doc: "0 downlink, 1 uplink"},
		{Name: "video_format", Kind: String, Doc: "video format"},
		{Name: "video_framerate", Kind: Int, Doc: "video frame rate"},
		{Name: "video_up_bitrate", Kind: Int, Doc: "uplink video bit rate"},
		{Name: "video_down_bitrate", Kind: Int, Doc: "downlink video bit rate"},
		{Name: "video_packets_lose", Kind: Int, Doc: "video packets lost"},
		{Name: "video_packets_loserate", Kind: Int, Doc: "video packet loss rate"},
	}
	if audio {
		ps = append(ps,
			Param{Name: "audio_format", Kind: String, Doc: "audio format"},
			Param{Name: "audio_up_bitrate", Kind: Int, Doc: "uplink audio bit rate"},
			Param{Name: "audio_down_bitrate", Kind: Int, Doc: "downlink audio bit rate"},
			Param{Name: "audio_packets_lose", Kind: Int, Doc: "audio packets lost"},
			Param{Name: "audio_packets_loserate", Kind: Int, Doc: "audio packet loss rate"},
		)
	}
	return ps
}
