package deploy

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/svc-dss/dss/app/config"
)

// program is what the manifests of one program are checked against: its
// configuration table, its loader and where it may write.
type program struct {
	keys []config.Key
	// port reads the HTTP port from a loaded configuration.
	load func(environ []string) (port int, err error)
	// devOnly are keys a production image cannot use, and the manifests
	// leave out.
	devOnly []string
	// writable are the paths the program writes to, each on a volume of
	// its own: the root filesystem is read-only. The environment
	// variable of a path set by configuration, or the path.
	writable []string
}

var programs = map[string]program{
	"validator": {
		keys: config.ValidatorKeys(),
		load: func(environ []string) (int, error) {
			c, err := config.LoadValidator(nil, environ, io.Discard)
			return c.Port, err
		},
		// Development mode's fixture PKI: a production build has no
		// development mode (servers/validator, nodev.go).
		devOnly:  []string{"SVC_DSS_VALIDATOR_DEV_PKI_ADDRESS"},
		writable: []string{"$SVC_DSS_TL_CACHE", "/tmp"},
	},
	"signer": {
		keys: config.SignerKeys(),
		load: func(environ []string) (int, error) {
			c, err := config.LoadSigner(nil, environ, io.Discard)
			return c.Port, err
		},
		writable: []string{"/tmp"},
	},
}

// objects is one overlay's output, decoded.
type objects struct {
	deployments  map[string]*appsv1.Deployment
	services     map[string]*corev1.Service
	configMaps   map[string]*corev1.ConfigMap
	secrets      map[string]*corev1.Secret
	budgets      map[string]*policyv1.PodDisruptionBudget
	autoscalers  map[string]*autoscalingv2.HorizontalPodAutoscaler
	netpols      map[string]*networkingv1.NetworkPolicy
	namesInOrder []string
}

// overlays lists the base and every overlay: one added later is checked
// without a change here.
func overlays(t *testing.T) []string {
	t.Helper()
	dirs := []string{"kustomize/base"}
	entries, err := os.ReadDir("kustomize/overlays")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join("kustomize/overlays", e.Name()))
		}
	}
	return dirs
}

// build runs kustomize on dir in-process, as `kubectl kustomize` would,
// and decodes every object strictly into its k8s.io/api type: an unknown
// or mis-cased field, a duplicate or a kind this test does not know fails.
func build(t *testing.T, dir string) objects {
	t.Helper()
	m, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		t.Fatalf("kustomize build %s: %v", dir, err)
	}
	o := objects{
		deployments: map[string]*appsv1.Deployment{}, services: map[string]*corev1.Service{},
		configMaps: map[string]*corev1.ConfigMap{}, secrets: map[string]*corev1.Secret{},
		budgets: map[string]*policyv1.PodDisruptionBudget{}, autoscalers: map[string]*autoscalingv2.HorizontalPodAutoscaler{},
		netpols: map[string]*networkingv1.NetworkPolicy{},
	}
	for _, r := range m.Resources() {
		data, err := r.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		gvk := r.GetApiVersion() + " " + r.GetKind()
		var target any
		switch gvk {
		case "apps/v1 Deployment":
			target = put(o.deployments, r.GetName())
		case "v1 Service":
			target = put(o.services, r.GetName())
		case "v1 ConfigMap":
			target = put(o.configMaps, r.GetName())
		case "v1 Secret":
			target = put(o.secrets, r.GetName())
		case "policy/v1 PodDisruptionBudget":
			target = put(o.budgets, r.GetName())
		case "autoscaling/v2 HorizontalPodAutoscaler":
			target = put(o.autoscalers, r.GetName())
		case "networking.k8s.io/v1 NetworkPolicy":
			target = put(o.netpols, r.GetName())
		default:
			t.Fatalf("%s: %s %s is a kind this test does not check", dir, gvk, r.GetName())
		}
		strict, err := sigsjson.UnmarshalStrict(data, target)
		if err != nil {
			t.Fatalf("%s: %s %s: %v", dir, gvk, r.GetName(), err)
		}
		if len(strict) > 0 {
			t.Fatalf("%s: %s %s: %v", dir, gvk, r.GetName(), strict)
		}
		o.namesInOrder = append(o.namesInOrder, r.GetKind()+"/"+r.GetName())
	}
	return o
}

func put[T any](m map[string]*T, name string) *T {
	v := new(T)
	m[name] = v
	return v
}

// TestManifestsDecodeStrictly: each overlay builds and holds, for each
// program, a Deployment, a Service, a PodDisruptionBudget, a
// HorizontalPodAutoscaler and a NetworkPolicy, and its ConfigMap and
// Secret.
func TestManifestsDecodeStrictly(t *testing.T) {
	for _, dir := range overlays(t) {
		t.Run(dir, func(t *testing.T) {
			is := is.New(t)
			o := build(t, dir)
			for name := range programs {
				is.True(o.deployments[name] != nil) // Deployment
				is.True(o.services[name] != nil)    // Service
				is.True(o.budgets[name] != nil)     // PodDisruptionBudget
				is.True(o.autoscalers[name] != nil) // HorizontalPodAutoscaler
				is.True(o.netpols[name] != nil)     // NetworkPolicy
			}
			is.Equal(len(o.configMaps), len(programs))
			is.Equal(len(o.secrets), len(programs))
		})
	}
}

// environment is what the container of d gets from its ConfigMaps and
// Secrets (envFrom) and its env entries, by source.
func environment(t *testing.T, o objects, c corev1.Container) (plain, secret map[string]string) {
	t.Helper()
	plain, secret = map[string]string{}, map[string]string{}
	for _, from := range c.EnvFrom {
		switch {
		case from.ConfigMapRef != nil:
			cm := o.configMaps[from.ConfigMapRef.Name]
			if cm == nil {
				t.Fatalf("container %s: no ConfigMap %s", c.Name, from.ConfigMapRef.Name)
			}
			maps.Copy(plain, cm.Data)
		case from.SecretRef != nil:
			s := o.secrets[from.SecretRef.Name]
			if s == nil {
				t.Fatalf("container %s: no Secret %s", c.Name, from.SecretRef.Name)
			}
			for k, v := range s.Data {
				secret[k] = string(v)
			}
			maps.Copy(secret, s.StringData)
		}
	}
	for _, e := range c.Env {
		if e.ValueFrom != nil {
			secret[e.Name] = ""
			continue
		}
		plain[e.Name] = e.Value
	}
	return plain, secret
}

// TestEnvironmentIsTheConfigurationTable: every variable a program gets
// is a key of its configuration table (app/config, not a list kept
// here), every key but the development-only ones is set, every password
// is in a Secret, and the program's own loader accepts the values.
func TestEnvironmentIsTheConfigurationTable(t *testing.T) {
	for _, dir := range overlays(t) {
		o := build(t, dir)
		for name, p := range programs {
			t.Run(dir+"/"+name, func(t *testing.T) {
				is := is.New(t)
				c := container(t, o, name)
				plain, secret := environment(t, o, c)
				known := map[string]bool{}
				for _, k := range p.keys {
					known[k.Env] = true
				}
				for env := range plain {
					if !known[env] {
						t.Errorf("%s is no setting of the %s (app/config)", env, name)
					}
					if _, twice := secret[env]; twice {
						t.Errorf("%s is set in a ConfigMap and in a Secret", env)
					}
				}
				for env := range secret {
					if !known[env] {
						t.Errorf("%s is no setting of the %s (app/config)", env, name)
					}
				}
				for _, k := range p.keys {
					_, inPlain := plain[k.Env]
					_, inSecret := secret[k.Env]
					switch {
					case slices.Contains(p.devOnly, k.Env):
						if inPlain || inSecret {
							t.Errorf("%s (%s) is for development builds only", k.Env, k.Name)
						}
					case !inPlain && !inSecret:
						t.Errorf("%s (%s) is not set", k.Env, k.Name)
					case strings.HasSuffix(k.Name, "password") && !inSecret:
						t.Errorf("%s (%s) is a password outside a Secret", k.Env, k.Name)
					}
				}
				var environ []string
				for _, m := range []map[string]string{plain, secret} {
					for k, v := range m {
						environ = append(environ, k+"="+v)
					}
				}
				port, err := p.load(environ)
				is.NoErr(err) // the program accepts its configuration
				is.Equal(containerPort(t, c, intstr.FromString("http")), port)
			})
		}
	}
}

func container(t *testing.T, o objects, name string) corev1.Container {
	t.Helper()
	d := o.deployments[name]
	if d == nil {
		t.Fatalf("no Deployment %s", name)
	}
	cs := d.Spec.Template.Spec.Containers
	if len(cs) != 1 || cs[0].Name != name {
		t.Fatalf("Deployment %s: want one container named %s", name, name)
	}
	return cs[0]
}

// containerPort resolves a probe's or a Service's port, by name or
// number, to the container's port number.
func containerPort(t *testing.T, c corev1.Container, p intstr.IntOrString) int {
	t.Helper()
	for _, cp := range c.Ports {
		if p.Type == intstr.String && cp.Name == p.StrVal || p.Type == intstr.Int && cp.ContainerPort == p.IntVal {
			return int(cp.ContainerPort)
		}
	}
	t.Fatalf("container %s has no port %s", c.Name, p.String())
	return 0
}

// TestPodsProbesAndSecurity: readiness and liveness ask /actuator/health
// on the port the program listens on; the pod runs as a non-root user
// with the default seccomp profile, no capability, no privilege
// escalation and a read-only root filesystem, writable volumes only
// where the program writes; the Service, the budget and the autoscaler
// find the pods.
func TestPodsProbesAndSecurity(t *testing.T) {
	for _, dir := range overlays(t) {
		o := build(t, dir)
		for name, p := range programs {
			t.Run(dir+"/"+name, func(t *testing.T) {
				is := is.New(t)
				d := o.deployments[name]
				c := container(t, o, name)
				plain, _ := environment(t, o, c)
				port, err := p.load(envList(plain))
				is.NoErr(err)
				for probe, pr := range map[string]*corev1.Probe{"readiness": c.ReadinessProbe, "liveness": c.LivenessProbe} {
					if pr == nil || pr.HTTPGet == nil {
						t.Fatalf("no HTTP %s probe", probe)
					}
					is.Equal(pr.HTTPGet.Path, "/actuator/health")                   // probe path
					is.Equal(containerPort(t, c, pr.HTTPGet.Port), port)            // probe port
					is.True(pr.HTTPGet.Scheme == "" || pr.HTTPGet.Scheme == "HTTP") // the programs serve HTTP
				}

				ps := d.Spec.Template.Spec.SecurityContext
				is.True(ps != nil && ps.RunAsNonRoot != nil && *ps.RunAsNonRoot)
				is.True(ps.RunAsUser != nil && *ps.RunAsUser == imageUser(t, name)) // the image's user
				is.True(ps.SeccompProfile != nil && ps.SeccompProfile.Type == corev1.SeccompProfileTypeRuntimeDefault)
				is.True(d.Spec.Template.Spec.AutomountServiceAccountToken != nil && !*d.Spec.Template.Spec.AutomountServiceAccountToken)
				// Service links would set <SERVICE>_PORT for every Service
				// of the namespace: one named "server" would override the
				// signer's SERVER_PORT.
				is.True(d.Spec.Template.Spec.EnableServiceLinks != nil && !*d.Spec.Template.Spec.EnableServiceLinks)
				cs := c.SecurityContext
				is.True(cs != nil)
				is.True(cs.ReadOnlyRootFilesystem != nil && *cs.ReadOnlyRootFilesystem)
				is.True(cs.AllowPrivilegeEscalation != nil && !*cs.AllowPrivilegeEscalation)
				is.True(cs.RunAsNonRoot != nil && *cs.RunAsNonRoot)
				is.True(cs.Privileged == nil || !*cs.Privileged)
				is.True(cs.Capabilities != nil && slices.Equal(cs.Capabilities.Drop, []corev1.Capability{"ALL"}) && len(cs.Capabilities.Add) == 0)
				is.True(cs.SeccompProfile != nil && cs.SeccompProfile.Type == corev1.SeccompProfileTypeRuntimeDefault)

				var writable []string
				volumes := map[string]corev1.Volume{}
				for _, v := range d.Spec.Template.Spec.Volumes {
					volumes[v.Name] = v
				}
				for _, m := range c.VolumeMounts {
					v, ok := volumes[m.Name]
					is.True(ok) // every mount has its volume
					if !m.ReadOnly {
						is.True(v.EmptyDir != nil) // a writable volume is the pod's own
						is.True(v.EmptyDir.SizeLimit != nil)
						writable = append(writable, m.MountPath)
					}
				}
				var want []string
				for _, w := range p.writable {
					if env, ok := strings.CutPrefix(w, "$"); ok {
						w = plain[env]
					}
					want = append(want, w)
				}
				slices.Sort(writable)
				slices.Sort(want)
				is.Equal(writable, want) // writable volumes

				labels := d.Spec.Template.Labels
				is.True(matches(d.Spec.Selector.MatchLabels, labels))
				svc := o.services[name]
				is.True(matches(svc.Spec.Selector, labels))
				for _, sp := range svc.Spec.Ports {
					is.Equal(containerPort(t, c, sp.TargetPort), port) // Service targets the program's port
				}
				pdb := o.budgets[name]
				is.True(pdb.Spec.Selector != nil && matches(pdb.Spec.Selector.MatchLabels, labels))
				is.True(pdb.Spec.MinAvailable != nil || pdb.Spec.MaxUnavailable != nil)
				hpa := o.autoscalers[name]
				is.Equal(hpa.Spec.ScaleTargetRef, autoscalingv2.CrossVersionObjectReference{Kind: "Deployment", Name: name, APIVersion: "apps/v1"})
				is.Equal(len(hpa.Spec.Metrics), 1)
				m := hpa.Spec.Metrics[0]
				is.True(m.Type == autoscalingv2.ResourceMetricSourceType && m.Resource.Name == corev1.ResourceCPU)
				_, cpu := c.Resources.Requests[corev1.ResourceCPU]
				is.True(cpu) // a CPU utilization target needs a CPU request
				is.True(o.netpols[name] != nil && matches(o.netpols[name].Spec.PodSelector.MatchLabels, labels))
			})
		}
	}
}

func envList(m map[string]string) []string {
	var l []string
	for k, v := range m {
		l = append(l, k+"="+v)
	}
	return l
}

// matches reports whether selector selects labels.
func matches(selector, labels map[string]string) bool {
	if len(selector) == 0 {
		return false
	}
	for k, v := range selector {
		if labels[k] != v {
			return false
		}
	}
	return true
}

// TestValidatorNetworkPolicy: the validator may reach public addresses
// on 80 and 443 only (the publishers, the revocation and issuer hosts),
// PostgreSQL and Redis selected by label, and DNS; nothing private,
// not the cloud metadata address.
func TestValidatorNetworkPolicy(t *testing.T) {
	for _, dir := range overlays(t) {
		t.Run(dir, func(t *testing.T) {
			is := is.New(t)
			np := build(t, dir).netpols["validator"]
			is.Equal(np.Spec.PolicyTypes, []networkingv1.PolicyType{networkingv1.PolicyTypeIngress, networkingv1.PolicyTypeEgress})
			got := map[string][]string{}
			for _, rule := range np.Spec.Egress {
				is.True(len(rule.To) > 0)    // no rule to everywhere
				is.True(len(rule.Ports) > 0) // no rule on every port
				var ports []string
				for _, p := range rule.Ports {
					ports = append(ports, fmt.Sprintf("%s/%s", p.Port.String(), *p.Protocol))
				}
				for _, peer := range rule.To {
					var to string
					switch {
					case peer.IPBlock != nil:
						to = "public"
						for _, private := range []string{"10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "127.0.0.1", "100.64.0.1", "fd00::1", "fe80::1", "::1"} {
							is.True(!allows(peer.IPBlock, private)) // a private address is left out
						}
					case peer.PodSelector != nil && peer.NamespaceSelector == nil:
						to = peer.PodSelector.MatchLabels["app.kubernetes.io/name"]
					case peer.NamespaceSelector != nil && peer.PodSelector != nil:
						to = peer.PodSelector.MatchLabels["k8s-app"]
					default:
						t.Fatalf("egress peer %+v selects more than it should", peer)
					}
					got[to] = append(got[to], ports...)
				}
			}
			for to := range got {
				slices.Sort(got[to])
			}
			is.Equal(got, map[string][]string{
				"public":     {"443/TCP", "443/TCP", "80/TCP", "80/TCP"}, // IPv4 and IPv6
				"postgresql": {"5432/TCP"},
				"redis":      {"6379/TCP"},
				"kube-dns":   {"53/TCP", "53/UDP"},
			})
		})
	}
}

// allows reports whether block admits the address ip.
func allows(block *networkingv1.IPBlock, ip string) bool {
	addr := net.ParseIP(ip)
	_, cidr, err := net.ParseCIDR(block.CIDR)
	if err != nil || !cidr.Contains(addr) {
		return false
	}
	for _, e := range block.Except {
		if _, ex, err := net.ParseCIDR(e); err == nil && ex.Contains(addr) {
			return false
		}
	}
	return true
}

// A stage of a Dockerfile: its base image and its instructions.
type stage struct {
	from         string
	instructions [][2]string // instruction, arguments
}

// parseDockerfile reads the stages of a Dockerfile: enough of the syntax
// for these files (comments, line continuations, FROM ... AS name).
func parseDockerfile(t *testing.T, path string) []stage {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var stages []stage
	var line strings.Builder
	for l := range strings.SplitSeq(string(raw), "\n") {
		trimmed := strings.TrimSpace(l)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		if cont, ok := strings.CutSuffix(trimmed, "\\"); ok {
			line.WriteString(cont + " ")
			continue
		}
		line.WriteString(trimmed)
		instr, args, _ := strings.Cut(line.String(), " ")
		line.Reset()
		instr, args = strings.ToUpper(instr), strings.TrimSpace(args)
		if instr == "FROM" {
			stages = append(stages, stage{from: strings.Fields(args)[0]})
			continue
		}
		if len(stages) == 0 {
			t.Fatalf("%s: %s before FROM", path, instr)
		}
		s := &stages[len(stages)-1]
		s.instructions = append(s.instructions, [2]string{instr, args})
	}
	return stages
}

// imageUser is the numeric user the program's image runs as.
func imageUser(t *testing.T, name string) int64 {
	t.Helper()
	stages := parseDockerfile(t, filepath.Join(name, "Dockerfile"))
	var user string
	for _, in := range stages[len(stages)-1].instructions {
		if in[0] == "USER" {
			user = in[1]
		}
	}
	uid, _, _ := strings.Cut(user, ":")
	n, err := strconv.ParseInt(uid, 10, 64)
	if err != nil {
		t.Fatalf("%s/Dockerfile: USER %q is not numeric: Kubernetes checks runAsNonRoot on numbers only", name, user)
	}
	return n
}

// goBuild is the go build commands of a Dockerfile's build stage.
type goBuild struct {
	cgo  string
	tags string
	// pkgs are the packages built, in order: one executable each.
	pkgs    []string
	runtime string // the final stage's base image
	expose  string
	hasUser bool
}

func dockerfile(t *testing.T, name string) goBuild {
	t.Helper()
	path := filepath.Join(name, "Dockerfile")
	stages := parseDockerfile(t, path)
	if len(stages) < 2 {
		t.Fatalf("%s: %d stage(s): want a build stage and a runtime stage", path, len(stages))
	}
	var b goBuild
	for _, in := range stages[0].instructions {
		if in[0] != "RUN" || !strings.Contains(in[1], "go build") {
			continue
		}
		for _, f := range strings.Fields(in[1]) {
			switch {
			case strings.HasPrefix(f, "CGO_ENABLED="):
				b.cgo = strings.TrimPrefix(f, "CGO_ENABLED=")
			case strings.HasPrefix(f, "-tags"):
				b.tags = f
			case strings.HasPrefix(f, "./servers/"):
				b.pkgs = append(b.pkgs, f)
			}
		}
	}
	last := stages[len(stages)-1]
	b.runtime = last.from
	for _, in := range last.instructions {
		switch in[0] {
		case "USER":
			b.hasUser = true
		case "EXPOSE":
			b.expose = in[1]
		case "RUN":
			t.Errorf("%s: the runtime stage runs %q: its base has no shell, and it needs nothing built there", path, in[1])
		}
	}
	return b
}

// TestDockerfiles: each image is built in a stage of its own and runs,
// on a minimal base, as a numeric non-root user; the validator is
// static, the signer uses cgo for PKCS#11; neither is built with the tag
// dev; each says that it runs on a read-only root filesystem, which the
// manifests enforce (TestPodsProbesAndSecurity).
func TestDockerfiles(t *testing.T) {
	tests := []struct {
		name    string
		pkgs    []string
		cgo     string
		runtime string
		expose  string
	}{
		// The validator's image holds the service and the executable
		// that runs validate without it (docs/decisions/0044).
		{"validator", []string{"./servers/validator", "./servers/validatorcli"}, "0", "gcr.io/distroless/static-debian12:nonroot", "8090"},
		{"signer", []string{"./servers/signer"}, "1", "gcr.io/distroless/base-debian12:nonroot", "8080"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			b := dockerfile(t, tt.name)
			is.Equal(b.pkgs, tt.pkgs)
			is.Equal(b.cgo, tt.cgo)
			is.Equal(b.tags, "") // a production image has no development mode
			is.Equal(b.runtime, tt.runtime)
			is.True(b.hasUser)
			is.True(imageUser(t, tt.name) > 0) // not root
			is.Equal(b.expose, tt.expose)
			port, err := programs[tt.name].load(nil)
			is.NoErr(err)
			is.Equal(strconv.Itoa(port), tt.expose) // the program's default port
			raw, err := os.ReadFile(filepath.Join(tt.name, "Dockerfile"))
			is.NoErr(err)
			is.True(bytes.Contains(raw, []byte("read-only root filesystem")))
		})
	}
}

// TestImagesBuildProductionPrograms: the package each Dockerfile builds,
// with its cgo setting and no tag, links no fixture (test keys, trusted
// lists, samples) and none of the modules only tests may use (kustomize,
// the Kubernetes types, the OpenAPI validator); the signer links the
// PKCS#11 binding, which needs cgo.
func TestImagesBuildProductionPrograms(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	for name := range programs {
		t.Run(name, func(t *testing.T) {
			b := dockerfile(t, name)
			args := []string{"list", "-deps"}
			for _, pkg := range b.pkgs {
				args = append(args, "../"+strings.TrimPrefix(pkg, "./"))
			}
			cmd := exec.Command("go", args...)
			cmd.Env = append(os.Environ(), "CGO_ENABLED="+b.cgo)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("go list: %v\n%s", err, out)
			}
			deps := strings.Fields(string(out))
			for _, dep := range deps {
				for _, banned := range []string{"/dss/fixtures/", "sigs.k8s.io/", "k8s.io/", "github.com/pb33f/"} {
					if strings.Contains(dep, banned) {
						t.Errorf("the image's %s links %s", name, dep)
					}
				}
			}
			if pkcs11 := slices.Contains(deps, "github.com/miekg/pkcs11"); pkcs11 != (name == "signer") {
				t.Errorf("links github.com/miekg/pkcs11: %v", pkcs11)
			}
		})
	}
}

// TestServersLinkNoPrometheusClient: the two servers, in the production
// build and the one with the tag dev, link neither the Prometheus Go
// client nor protobuf (procfs, client_model and prometheus/common came
// with them): their package initialisation cost every start, the
// one-shot validate command's too, and adapters/metrics writes the text
// exposition itself (docs/decisions/0039-metrics.md). Tests may still
// link expfmt to parse what it writes.
func TestServersLinkNoPrometheusClient(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	for _, tags := range []string{"", "dev"} {
		out, err := exec.Command("go", "list", "-deps", "-tags", tags, "../servers/validator", "../servers/signer").CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps -tags %q: %v\n%s", tags, err, out)
		}
		deps := strings.Fields(string(out))
		if !slices.Contains(deps, "github.com/svc-dss/dss/adapters/metrics") {
			t.Fatalf("go list -deps -tags %q: the servers do not link adapters/metrics: %q", tags, out)
		}
		for _, dep := range deps {
			if strings.HasPrefix(dep, "github.com/prometheus/") || strings.HasPrefix(dep, "google.golang.org/protobuf/") {
				t.Errorf("tags %q: the servers link %s", tags, dep)
			}
		}
	}
}

// TestStaticValidatorRefusesAPKCS11Seal: the static validator of the
// image (no cgo) cannot load a PKCS#11 module, so a report seal in a
// PKCS#11 token stops its start-up with the reason, naming the setting,
// rather than failing at the first report.
func TestStaticValidatorRefusesAPKCS11Seal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the validator")
	}
	is := is.New(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "validator")
	build := exec.Command("go", "build", "-o", bin, "../servers/validator")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cert := filepath.Join(dir, "seal.pem")
	module := filepath.Join(dir, "module.so")
	is.NoErr(os.WriteFile(module, nil, 0o600))
	is.NoErr(os.WriteFile(cert, sealCertificatePEM(t), 0o600))
	run := exec.Command(bin)
	run.Env = append(os.Environ(),
		"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_MODULE="+module,
		"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_TOKEN=seal-token",
		"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_PIN=1234",
		"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_KEY_LABEL=seal",
		"SVC_DSS_VALIDATOR_REPORT_SEAL_CERTIFICATE="+cert,
	)
	out, err := run.CombinedOutput()
	var exit *exec.ExitError
	is.True(errors.As(err, &exit)) // it stops
	want := `app: svc.dss.validator.report-seal.pkcs11-key-label (seal in token seal-token): ` +
		`this validator is built without cgo and cannot load a PKCS#11 module: seal with report-seal.pkcs12-file, or build with CGO_ENABLED=1`
	if !strings.Contains(string(out), want) {
		t.Errorf("the start-up says\n%s\nwant it to say %q", out, want)
	}
}

// sealCertificatePEM is a self-signed certificate in PEM, which the
// PKCS#11 seal setting names beside its key.
func sealCertificatePEM(t *testing.T) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "seal"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}
