// Command mpharness answers questions about Go's behaviour for the differential
// tests of ongrid-skill's marketplace emulation: base64, PEM and PKIX parsing,
// the pack hash walk, ECDSA verification, and yaml.v3 frontmatter decoding.
//
// One JSON request per line on stdin, one JSON response per line on stdout.
// Byte strings travel base64-encoded (standard, padded). Standard library plus
// gopkg.in/yaml.v3 (Debian's golang-gopkg-yaml.v3-dev, through a replace line).
//
//	b64     s                 → err, out
//	pem     data              → found, type, bytes
//	pkix    der               → err, type (%T of the key)
//	key     pem               → err (pem.Decode, ParsePKIXPublicKey, ECDSA assertion), der
//	hash    root              → err, hex (the canonical *.md/*.json stream's SHA-256)
//	verify  root, pin         → state, err (signature.json checked as the contract describes)
//	yaml    data              → err (yaml.Unmarshal into map[string]interface{})
//	skill   data              → err, raw, skill, panic (ParseSkillMd's two decodes; skill.go)
//	agent   data              → err, raw, agent, panic (ParseAgentMd's)
//	command data              → err, panic (ConvertCommandFile's)
//	extract file, name, dest  → err, root, tree [{path, kind, mode, data}] (the upload endpoint's rules)
//	upload  head, size, tail  → err, name, size (head + size zero bytes + tail as the upload's
//	                            multipart body, boundary B, parsed under its 64 MiB MaxBytesReader)
package main

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/sha256"
	"crypto/subtle"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

type request struct {
	Op   string `json:"op"`
	S    []byte `json:"s"`
	Data []byte `json:"data"`
	Der  []byte `json:"der"`
	Pem  []byte `json:"pem"`
	Root []byte `json:"root"`
	Pin  []byte `json:"pin"`
	File []byte `json:"file"`
	Name []byte `json:"name"`
	Dest []byte `json:"dest"`
	Head []byte `json:"head"`
	Tail []byte `json:"tail"`
	Size int    `json:"size"`
	// caps: the pack id in Name, the version in S.
	Docs   [][]byte `json:"docs"`
	Names  [][]byte `json:"names"`
	Agents int      `json:"agents"`
}

type object = map[string]interface{}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

func errText(err error) interface{} {
	if err == nil {
		return nil
	}
	return b64([]byte(err.Error()))
}

func keyOf(data []byte) (*ecdsa.PublicKey, []byte, error) {
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, nil, errors.New("pub_key not PEM-encoded")
	}
	k, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		return nil, nil, fmt.Errorf("parse PKIX pub_key: %w", err)
	}
	ec, ok := k.(*ecdsa.PublicKey)
	if !ok {
		return nil, nil, fmt.Errorf("pub_key is not ECDSA (got %T)", k)
	}
	return ec, block.Bytes, nil
}

// streamHash hashes every regular *.md / *.json file but signature.json, sorted by
// slash path: path NUL content NUL, as the contract's section 5.3 states it.
func streamHash(root string) ([]byte, error) {
	root = filepath.Clean(root)
	var rels []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if !info.Mode().IsRegular() || filepath.Base(p) == "signature.json" {
			return nil
		}
		if e := strings.ToLower(filepath.Ext(p)); e != ".md" && e != ".json" {
			return nil
		}
		r, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rels = append(rels, filepath.ToSlash(r))
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(rels)
	h := sha256.New()
	for _, r := range rels {
		b, err := os.ReadFile(filepath.Join(root, r))
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", r, err)
		}
		h.Write([]byte(r))
		h.Write([]byte{0})
		h.Write(b)
		h.Write([]byte{0})
	}
	return h.Sum(nil), nil
}

// signatureManifest is signature.json's shape; Go's error texts name the type.
type signatureManifest struct {
	Sig    string `json:"sig"`
	PubKey string `json:"pub_key"`
}

func verify(root string, pin string) (string, error) {
	root = filepath.Clean(root)
	raw, err := os.ReadFile(filepath.Join(root, "signature.json"))
	if errors.Is(err, fs.ErrNotExist) {
		return "unsigned", nil
	} else if err != nil {
		return "failed", fmt.Errorf("read signature.json: %w", err)
	}
	var m signatureManifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return "failed", fmt.Errorf("parse signature.json: %w", err)
	}
	if m.Sig == "" || m.PubKey == "" {
		return "failed", errors.New("signature.json missing sig or pub_key")
	}
	sig, err := base64.StdEncoding.DecodeString(m.Sig)
	if err != nil {
		return "failed", fmt.Errorf("decode sig: %w", err)
	}
	pubPEM, err := base64.StdEncoding.DecodeString(m.PubKey)
	if err != nil {
		return "failed", fmt.Errorf("decode pub_key: %w", err)
	}
	key, der, err := keyOf(pubPEM)
	if err != nil {
		return "failed", err
	}
	if pin != "" {
		_, pinDER, err := keyOf([]byte(pin))
		if err != nil {
			return "failed", fmt.Errorf("expected key: %w", err)
		}
		if len(der) != len(pinDER) || subtle.ConstantTimeCompare(der, pinDER) != 1 {
			return "failed", errors.New("pub_key does not match pinned registry key")
		}
	}
	sum, err := streamHash(root)
	if err != nil {
		return "failed", fmt.Errorf("compute pack hash: %w", err)
	}
	if !ecdsa.VerifyASN1(key, sum, sig) {
		return "failed", errors.New("ecdsa signature does not verify")
	}
	return "verified", nil
}

func answer(r request) object {
	switch r.Op {
	case "version":
		return object{"go": strings.TrimSpace(goVersion())}
	case "b64":
		out, err := base64.StdEncoding.DecodeString(string(r.S))
		return object{"err": errText(err), "out": b64(out)}
	case "pem":
		block, _ := pem.Decode(r.Data)
		if block == nil {
			return object{"found": false}
		}
		return object{"found": true, "type": b64([]byte(block.Type)), "bytes": b64(block.Bytes)}
	case "pkix":
		k, err := x509.ParsePKIXPublicKey(r.Der)
		if err != nil {
			return object{"err": errText(err)}
		}
		return object{"err": nil, "type": fmt.Sprintf("%T", k)}
	case "key":
		_, der, err := keyOf(r.Pem)
		return object{"err": errText(err), "der": b64(der)}
	case "hash":
		sum, err := streamHash(string(r.Root))
		return object{"err": errText(err), "hex": hex.EncodeToString(sum)}
	case "verify":
		state, err := verify(string(r.Root), string(r.Pin))
		return object{"state": state, "err": errText(err)}
	case "extract":
		return extractAnswer(string(r.File), string(r.Name), string(r.Dest))
	case "skill":
		return skillFrontmatter(r.Data)
	case "agent":
		return agentFrontmatter(r.Data, false)
	case "command":
		return agentFrontmatter(r.Data, true)
	case "upload":
		return uploadAnswer(r.Head, r.Size, r.Tail)
	case "caps":
		return capsAnswer(r.Name, r.S, r.Docs, r.Names, r.Agents)
	case "yaml":
		var m map[string]interface{}
		err := yaml.Unmarshal(r.Data, &m)
		return object{"err": errText(err)}
	}
	return object{"fatal": "unknown op " + r.Op}
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(out)
	for in.Scan() {
		var r request
		if err := json.Unmarshal(in.Bytes(), &r); err != nil {
			enc.Encode(object{"fatal": err.Error()})
			continue
		}
		enc.Encode(answer(r))
	}
	out.Flush()
}
