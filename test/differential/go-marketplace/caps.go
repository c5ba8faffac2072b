package main

import (
	"encoding/json"
	"fmt"
	"sort"

	"gopkg.in/yaml.v3"

	"ongridskill/mpharness/chatruntime"
)

// The capability declaration as marketplace-contract.md §3.1 describes it: the struct
// shapes (field order, omitempty), filled from decoded Skills, then json.Marshal.
type capSlot struct {
	Slot   string   `json:"slot"`
	Label  string   `json:"label"`
	Fields []string `json:"fields,omitempty"`
}

type capRequires struct {
	Bins        []string  `json:"bins,omitempty"`
	Config      []string  `json:"config,omitempty"`
	Credentials []capSlot `json:"credentials,omitempty"`
}

type capSkill struct {
	Name             string                   `json:"name"`
	Scope            string                   `json:"scope"`
	EdgeCapabilities []map[string]interface{} `json:"edge_capabilities,omitempty"`
	Requires         capRequires              `json:"requires"`
	ToolClasses      []string                 `json:"tool_classes"`
}

type capSummary struct {
	ToolClasses     []string  `json:"tool_classes,omitempty"`
	Bins            []string  `json:"bins,omitempty"`
	ConfigKeys      []string  `json:"config_keys,omitempty"`
	CredentialSlots []capSlot `json:"credential_slots,omitempty"`
}

type capDecl struct {
	PackID     string     `json:"pack_id"`
	Version    string     `json:"version"`
	Skills     []capSkill `json:"skills"`
	AgentCount int        `json:"agent_count"`
	Summary    capSummary `json:"summary"`
}

func keysSorted(set map[string]struct{}) []string {
	var out []string
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// decodeSkill: the Skill as ParseSkillMd gets it (typed, then a raw map), or ok=false.
func decodeSkill(data []byte) (sk chatruntime.Skill, ok bool, panicked interface{}) {
	defer func() {
		if r := recover(); r != nil {
			ok, panicked = false, fmt.Sprint(r)
		}
	}()
	if len(data) == 0 {
		return sk, true, nil
	}
	if yaml.Unmarshal(data, &sk) != nil {
		return sk, false, nil
	}
	raw := map[string]interface{}{}
	if yaml.Unmarshal(data, &raw) != nil {
		return sk, false, nil
	}
	return sk, true, nil
}

// capsAnswer: docs[i] is a skill's frontmatter (empty for a command); names[i] its loaded name.
// Skills that do not decode are left out, as the loader leaves them out.
func capsAnswer(packID, version []byte, docs, names [][]byte, agents int) object {
	d := capDecl{PackID: string(packID), Version: string(version), AgentCount: agents}
	classes, bins, cfg := map[string]struct{}{}, map[string]struct{}{}, map[string]struct{}{}
	slotSeen := map[string]struct{}{}
	oks := make([]bool, len(docs))
	for i, doc := range docs {
		sk, ok, p := decodeSkill(doc)
		if p != nil {
			return object{"panic": p}
		}
		oks[i] = ok
		if !ok {
			continue
		}
		rec := capSkill{
			Name:             string(names[i]),
			Scope:            sk.Metadata.Ongrid.Scope,
			EdgeCapabilities: sk.Metadata.Ongrid.EdgeCapabilities,
		}
		if rec.Scope == "" {
			rec.Scope = "manager"
		}
		req := sk.Metadata.Requires
		if len(req.Bins) > 0 {
			rec.Requires.Bins = req.Bins
		}
		if len(req.Config) > 0 {
			rec.Requires.Config = req.Config
		}
		for _, c := range req.Credentials {
			if c.Slot == "" {
				continue
			}
			s := capSlot{Slot: c.Slot, Label: c.Label}
			if len(c.Fields) > 0 {
				s.Fields = c.Fields
			}
			rec.Requires.Credentials = append(rec.Requires.Credentials, s)
			if _, seen := slotSeen[c.Slot]; !seen {
				slotSeen[c.Slot] = struct{}{}
				d.Summary.CredentialSlots = append(d.Summary.CredentialSlots, s)
			}
		}
		own := map[string]struct{}{}
		for _, t := range sk.Tools {
			c := string(t.Class)
			if c == "" {
				c = "read"
			}
			own[c] = struct{}{}
			classes[c] = struct{}{}
		}
		rec.ToolClasses = keysSorted(own)
		for _, b := range rec.Requires.Bins {
			bins[b] = struct{}{}
		}
		for _, c := range rec.Requires.Config {
			cfg[c] = struct{}{}
		}
		d.Skills = append(d.Skills, rec)
	}
	d.Summary.ToolClasses = keysSorted(classes)
	d.Summary.Bins = keysSorted(bins)
	d.Summary.ConfigKeys = keysSorted(cfg)
	out, err := json.Marshal(d)
	return object{"ok": oks, "json": b64(out), "err": errText(err)}
}
