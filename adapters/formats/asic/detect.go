package asic

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"io"
	"path"
	"strings"
)

// Media types of the mimetype entry.
const (
	MimeASiCS = "application/vnd.etsi.asic-s+zip"
	MimeASiCE = "application/vnd.etsi.asic-e+zip"
	// mimeODF prefixes the media types of OpenDocument files.
	mimeODF = "application/vnd.oasis.opendocument."

	odfSignatures = "META-INF/documentsignatures.xml"
)

// Detect reports whether data is a container Read reads: a zip whose
// first entry is a mimetype naming an ASiC media type, or an
// OpenDocument media type with META-INF/documentsignatures.xml, or a zip
// with the structure of an ASiC container (META-INF/signature*.p7s,
// signatures*.xml, *timestamp*.tst, ASiCManifest*.xml), whatever its
// mimetype says, as DSS recognises ASiC. It reads the zip's directory
// and its first local header only, within the limits of Read.
func Detect(data []byte) bool {
	if len(data) < localLen || binary.LittleEndian.Uint32(data) != sigLocal || len(data) > MaxContainerSize {
		return false
	}
	d, _ := scan(data) // what could be read: Read refuses the rest
	names := make([]string, len(d.headers))
	for i, h := range d.headers {
		names[i] = h.name
	}
	mt, first := firstMimetype(data)
	if first && (mt == MimeASiCS || mt == MimeASiCE) {
		return true
	}
	if first && strings.HasPrefix(mt, mimeODF) {
		for _, n := range names {
			if n == odfSignatures {
				return true
			}
		}
		return false
	}
	for _, n := range names {
		switch kindOf(n) {
		case cadesSignature, xadesSignature, timestampToken, asicManifest, archiveManifest:
			return true
		}
	}
	return false
}

// firstMimetype returns the content of the first local entry when it is
// named mimetype (stored or deflated, at most 256 bytes read).
func firstMimetype(data []byte) (string, bool) {
	n := int(binary.LittleEndian.Uint16(data[26:]))
	m := int(binary.LittleEndian.Uint16(data[28:]))
	if len(data) < localLen+n+m || string(data[localLen:localLen+n]) != "mimetype" {
		return "", false
	}
	cs := int(binary.LittleEndian.Uint32(data[18:]))
	body := data[localLen+n+m:]
	var r io.Reader
	switch binary.LittleEndian.Uint16(data[8:]) {
	case 0:
		if binary.LittleEndian.Uint16(data[6:])&flagDescriptor != 0 || cs > len(body) {
			// Size unknown here (a data descriptor follows): the known
			// type the content starts with.
			for _, t := range []string{MimeASiCS, MimeASiCE, mimeODF} {
				if bytes.HasPrefix(body, []byte(t)) {
					return t, true
				}
			}
			return "", true
		}
		r = bytes.NewReader(body[:cs])
	case 8:
		r = flate.NewReader(bytes.NewReader(body))
	default:
		return "", true
	}
	buf, _ := io.ReadAll(io.LimitReader(r, 256))
	return strings.TrimSpace(string(buf)), true
}

// kind is what an entry is to the container.
type kind uint8

const (
	dataFile        kind = iota
	otherMeta            // META-INF/ file of no signature role (manifest.xml, ...)
	cadesSignature       // META-INF/*signature*.p7s
	xadesSignature       // META-INF/*signatures*.xml
	timestampToken       // META-INF/*timestamp*.tst
	asicManifest         // META-INF/*ASiCManifest*.xml
	archiveManifest      // META-INF/*ASiCArchiveManifest*.xml
	folder
	mimetypeEntry
)

// kindOf classifies an entry by its name, as DSS does (ASiCUtils): the
// files directly in META-INF/ whose names contain signature, signatures,
// timestamp, ASiCManifest or ASiCArchiveManifest with the matching
// extension.
func kindOf(name string) kind {
	switch {
	case strings.HasSuffix(name, "/"):
		return folder
	case name == "mimetype":
		return mimetypeEntry
	case !strings.HasPrefix(name, "META-INF/"):
		return dataFile
	}
	dir, base := path.Split(name)
	if dir != "META-INF/" {
		return otherMeta
	}
	switch {
	case strings.Contains(base, "signatures") && strings.HasSuffix(base, ".xml"):
		return xadesSignature
	case strings.Contains(base, "signature") && strings.HasSuffix(base, ".p7s"):
		return cadesSignature
	case strings.Contains(base, "timestamp") && strings.HasSuffix(base, ".tst"):
		return timestampToken
	case strings.Contains(base, "ASiCArchiveManifest") && strings.HasSuffix(base, ".xml"):
		return archiveManifest
	case strings.Contains(base, "ASiCManifest") && strings.HasSuffix(base, ".xml"):
		return asicManifest
	}
	return otherMeta
}
