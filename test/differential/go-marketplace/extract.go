package main

// The upload endpoint's archive handling as the contract (section 4.2) states it,
// written here with Go's own archive/zip, archive/tar and compress/gzip so the
// tests can compare our extraction (tar-stream, our own zip reader) with Go's readers.

import (
	"archive/tar"
	"bytes"
	"archive/zip"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
)

const maxFile = 128 << 20

func underDest(dest, name string) (string, bool) {
	t := filepath.Join(dest, name)
	r, err := filepath.Rel(dest, t)
	if err != nil || r == ".." || strings.HasPrefix(r, "../") {
		return "", false
	}
	return t, true
}

func writeOut(t string, r io.Reader, m os.FileMode) error {
	perm := os.FileMode(0o644)
	if m&0o111 != 0 {
		perm = 0o755
	}
	f, err := os.OpenFile(t, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := f.Chmod(perm); err != nil {
		return err
	}
	_, err = io.Copy(f, io.LimitReader(r, maxFile))
	return err
}

func fromZip(file, dest string) error {
	z, err := zip.OpenReader(file)
	if err != nil {
		return fmt.Errorf("open zip: %w", err)
	}
	defer z.Close()
	for _, f := range z.File {
		t, ok := underDest(dest, f.Name)
		if !ok {
			return fmt.Errorf("zip entry escapes archive root: %q", f.Name)
		}
		if f.FileInfo().IsDir() {
			if err := os.MkdirAll(t, 0o755); err != nil {
				return err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(t), 0o755); err != nil {
			return err
		}
		rc, err := f.Open()
		if err != nil {
			return err
		}
		err = writeOut(t, rc, f.FileInfo().Mode())
		rc.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

func fromTar(r io.Reader, dest string) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("tar: %w", err)
		}
		t, ok := underDest(dest, h.Name)
		if !ok {
			return fmt.Errorf("tar entry escapes archive root: %q", h.Name)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(t, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(t), 0o755); err != nil {
				return err
			}
			if err := writeOut(t, tr, os.FileMode(h.Mode)); err != nil {
				return err
			}
		}
	}
}

func extractTo(file, name, dest string) error {
	n := strings.ToLower(name)
	switch {
	case strings.HasSuffix(n, ".zip"):
		return fromZip(file, dest)
	case strings.HasSuffix(n, ".tar.gz"), strings.HasSuffix(n, ".tgz"):
		f, err := os.Open(file)
		if err != nil {
			return err
		}
		defer f.Close()
		gz, err := gzip.NewReader(f)
		if err != nil {
			return fmt.Errorf("gzip: %w", err)
		}
		defer gz.Close()
		return fromTar(gz, dest)
	case strings.HasSuffix(n, ".tar"):
		f, err := os.Open(file)
		if err != nil {
			return err
		}
		defer f.Close()
		return fromTar(f, dest)
	}
	return fmt.Errorf("unsupported archive %q (need .zip / .tar.gz / .tgz / .tar)", name)
}

// extractAnswer extracts into dest (which must exist and be empty), descends into a
// single top-level directory, and lists the tree below the root.
func extractAnswer(file, name, dest string) object {
	if err := extractTo(file, name, dest); err != nil {
		return object{"err": errText(err)}
	}
	root := dest
	if ents, err := os.ReadDir(dest); err == nil && len(ents) == 1 && ents[0].IsDir() {
		root = filepath.Join(dest, ents[0].Name())
	}
	var tree []object
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return nil
		}
		info, _ := d.Info()
		rel, _ := filepath.Rel(root, p)
		e := object{"path": b64([]byte(filepath.ToSlash(rel))), "mode": int(info.Mode().Perm())}
		if d.IsDir() {
			e["kind"] = "dir"
		} else {
			e["kind"] = "file"
			data, _ := os.ReadFile(p)
			e["data"] = b64(data)
		}
		tree = append(tree, e)
		return nil
	})
	rootRel, _ := filepath.Rel(dest, root)
	return object{"err": nil, "root": b64([]byte(rootRel)), "tree": tree}
}

// uploadAnswer parses a multipart body as the upload handler does: a 64 MiB
// MaxBytesReader, ParseMultipartForm(64 MiB), then the 'file' field.
func uploadAnswer(head []byte, size int, tail []byte) object {
	body := io.MultiReader(bytes.NewReader(head), io.LimitReader(zeros{}, int64(size)), bytes.NewReader(tail))
	r := httptest.NewRequest("POST", "/v1/marketplace/upload", body)
	r.Header.Set("Content-Type", "multipart/form-data; boundary=B")
	r.Body = http.MaxBytesReader(httptest.NewRecorder(), r.Body, 64<<20)
	if err := r.ParseMultipartForm(64 << 20); err != nil {
		return object{"err": errText(fmt.Errorf("parse upload: %w", err))}
	}
	defer r.MultipartForm.RemoveAll()
	f, h, err := r.FormFile("file")
	if err != nil {
		return object{"err": errText(fmt.Errorf("missing 'file' field: %w", err))}
	}
	defer f.Close()
	n, _ := io.Copy(io.Discard, f)
	return object{"err": nil, "name": b64([]byte(filepath.Base(h.Filename))), "size": n}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 0
	}
	return len(p), nil
}
