package main

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"ongridskill/mpharness/chatruntime"
)

// skillFrontmatter decodes as ParseSkillMd does: into the Skill, then (when that worked) into a
// map[string]any. It answers both errors and the Skill's fields as JSON.
func skillFrontmatter(data []byte) (answer object) {
	// yaml.v3 can panic (a merge beside an unhashable key): answered as such.
	defer func() {
		if r := recover(); r != nil {
			answer = object{"panic": fmt.Sprint(r)}
		}
	}()
	var sk chatruntime.Skill
	if err := yaml.Unmarshal(data, &sk); err != nil {
		return object{"err": errText(err)}
	}
	raw := map[string]interface{}{}
	if err := yaml.Unmarshal(data, &raw); err != nil {
		return object{"err": errText(err), "raw": true}
	}
	return object{"skill": sk}
}

// agentFrontmatter decodes as ParseAgentMd does (typed, then a map); commandFrontmatter as
// ConvertCommandFile does (typed only).
func agentFrontmatter(data []byte, command bool) (answer object) {
	defer func() {
		if r := recover(); r != nil {
			answer = object{"panic": fmt.Sprint(r)}
		}
	}()
	if command {
		return object{"err": errText(chatruntime.DecodeCommand(data))}
	}
	var ag chatruntime.Agent
	if err := yaml.Unmarshal(data, &ag); err != nil {
		return object{"err": errText(err)}
	}
	raw := map[string]interface{}{}
	if err := yaml.Unmarshal(data, &raw); err != nil {
		return object{"err": errText(err), "raw": true}
	}
	return object{"agent": ag}
}
