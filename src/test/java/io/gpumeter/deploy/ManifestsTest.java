package io.gpumeter.deploy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** Base and both overlays, rendered and parsed: what every workload, Service and reference must satisfy. */
class ManifestsTest {

    /** Secrets the prod overlay reads but does not create: the platform team does (docs/deploy.md). */
    static final Set<String> EXTERNAL_SECRETS = Set.of("gpumeter-postgres", "gpumeter-alertmanager-webhook", "gpumeter-auth");
    /**
     * Made by the operator in every overlay: the token key and Alertmanager's webhook token are never rendered from
     * the repository (dev: k8s/overlays/dev/generate-secrets.sh).
     */
    static final Set<String> EXTERNAL_EVERYWHERE = Set.of("gpumeter-auth", "gpumeter-alertmanager-webhook");

    static Stream<String> applied() {
        return Manifests.APPLIED.stream();
    }

    @ParameterizedTest(name = "k8s/{0}")
    @MethodSource("applied")
    void everyContainerHasProbesLimitsAndRunsLockedDown(String dir) {
        Manifests m = Manifests.of(dir);
        assertFalse(m.workloads().isEmpty(), "k8s/" + dir + " renders no workloads");
        for (Manifests.Workload w : m.workloads()) {
            PodSecurityContext pod = w.pod().getSecurityContext();
            assertNotNull(pod, w.name() + ": no pod securityContext");
            assertNotNull(pod.getSeccompProfile(), w.name() + ": no seccompProfile");
            assertEquals("RuntimeDefault", pod.getSeccompProfile().getType(), w.name() + ": seccompProfile");
            List<Container> containers = new ArrayList<>(w.pod().getContainers());
            containers.addAll(Optional.ofNullable(w.pod().getInitContainers()).orElse(List.of()));
            for (Container c : containers) {
                String where = w.name() + " container " + c.getName();
                assertProbes(w, c, where);
                assertLimits(c, where);
                assertLockedDown(pod, c, where);
            }
            assertFalse(Boolean.TRUE.equals(w.pod().getHostNetwork()) || Boolean.TRUE.equals(w.pod().getHostPID())
                    || Boolean.TRUE.equals(w.pod().getHostIPC()), w.name() + " shares a host namespace");
        }
    }

    private static void assertProbes(Manifests.Workload w, Container c, String where) {
        assertNotNull(c.getLivenessProbe(), where + ": no liveness probe");
        assertNotNull(c.getReadinessProbe(), where + ": no readiness probe");
        if (c.getName().endsWith("-service")) {
            assertHttpProbe(c, c.getLivenessProbe(), "/q/health/live", where + " liveness");
            assertHttpProbe(c, c.getReadinessProbe(), "/q/health/ready", where + " readiness");
            if (c.getStartupProbe() != null) {
                assertHttpProbe(c, c.getStartupProbe(), "/q/health/started", where + " startup");
            }
            // Health lives on the management port only: the API port answers 404 for it.
            for (Probe p : Optional.ofNullable(c.getStartupProbe()).map(p -> List.of(c.getLivenessProbe(), c.getReadinessProbe(), p))
                    .orElse(List.of(c.getLivenessProbe(), c.getReadinessProbe()))) {
                assertEquals(new IntOrString("management"), p.getHttpGet().getPort(), where + ": probes use the management port");
            }
        }
    }

    /**
     * Every JVM service runs lean and gives memory back once a load is over (G1's periodic collections), with its heap
     * at most 60 % of its container's limit and a request of 256 MiB, what a service keeps after a month's replay.
     */
    @ParameterizedTest(name = "k8s/{0}")
    @MethodSource("applied")
    void everyServiceJvmIsLeanAndGivesMemoryBack(String dir) {
        Manifests m = Manifests.of(dir);
        int services = 0;
        for (Manifests.Workload w : m.workloads()) {
            for (Container c : w.pod().getContainers()) {
                if (c.getImage() == null || !c.getImage().matches(".*/(collector|ledger|slo|alert|billing)-service([:@].*)?")) {
                    continue;
                }
                services++;
                String where = w.name() + " container " + c.getName();
                Map<String, String> env = new java.util.HashMap<>();
                Optional.ofNullable(c.getEnv()).orElse(List.of()).forEach(e -> env.put(e.getName(), e.getValue()));
                assertTrue(env.getOrDefault("GC_CONTAINER_OPTIONS", "").contains("-XX:G1PeriodicGCInterval="), where);
                assertTrue(env.get("GC_CONTAINER_OPTIONS").contains("-XX:-G1PeriodicGCInvokesConcurrent"), where
                        + ": an idle service compacts, so what a load promoted is given back");
                for (String option : List.of("-XX:+UnlockExperimentalVMOptions -XX:G1NewSizePercent=60",
                        "-XX:-G1UseAdaptiveIHOP", "-XX:InitiatingHeapOccupancyPercent=70")) {
                    assertTrue(env.get("GC_CONTAINER_OPTIONS").contains(option), where + ": a bulk load's collections, " + option);
                }
                // The image's start script appends -XX:MinHeapFreeRatio, -XX:MaxHeapFreeRatio and -XX:GCTimeRatio from
                // these variables (10, 20 and 4 when unset) after GC_CONTAINER_OPTIONS, so that they win.
                assertFalse(env.get("GC_CONTAINER_OPTIONS").contains("HeapFreeRatio")
                        || env.get("GC_CONTAINER_OPTIONS").contains("GCTimeRatio"), where + ": overridden by the start script");
                assertEquals("40", env.get("GC_MIN_HEAP_FREE_RATIO"), where + ": a bulk load's heap is not shrunk to its live data");
                assertEquals("70", env.get("GC_MAX_HEAP_FREE_RATIO"), where + ": a bulk load's heap is not shrunk to its live data");
                assertEquals("12", env.get("GC_TIME_RATIO"), where + ": G1's own time ratio, not the script's 4");
                assertTrue(Integer.parseInt(env.getOrDefault("JAVA_MAX_MEM_RATIO", "100")) <= 60, where);
                assertEquals("2", env.get("MALLOC_ARENA_MAX"), where);
                assertTrue(env.getOrDefault("JDK_JAVA_OPTIONS", "").contains("-XX:MaxMetaspaceSize="), where);
                if (c.getImage().contains("/ledger-service")) { // Q1's JIT, as the launcher starts the ledger
                    assertTrue(env.get("JDK_JAVA_OPTIONS").contains("-XX:CICompilerCount=2")
                            && env.get("JDK_JAVA_OPTIONS").contains("-XX:TrimNativeHeapInterval=5000"), where);
                    assertFalse(env.get("JDK_JAVA_OPTIONS").contains("TieredStopAtLevel"), where + ": C2 compiles Q1's path");
                }
                assertTrue(c.getResources().getRequests().get("memory").getNumericalAmount()
                        .compareTo(new Quantity("256Mi").getNumericalAmount()) <= 0, where + ": memory request");
            }
        }
        assertEquals(5, services, "k8s/" + dir + ": the five services");
    }

    private static void assertHttpProbe(Container c, Probe probe, String path, String where) {
        HTTPGetAction get = probe.getHttpGet();
        assertNotNull(get, where + ": not an HTTP probe");
        assertEquals(path, get.getPath(), where + ": path");
        assertTrue(containerPort(c, get.getPort()).isPresent(), where + ": port " + get.getPort() + " is not a container port");
    }

    private static void assertLimits(Container c, String where) {
        assertNotNull(c.getResources(), where + ": no resources");
        Map<String, Quantity> limits = Optional.ofNullable(c.getResources().getLimits()).orElse(Map.of());
        Map<String, Quantity> requests = Optional.ofNullable(c.getResources().getRequests()).orElse(Map.of());
        for (String r : List.of("cpu", "memory")) {
            assertTrue(limits.containsKey(r), where + ": no " + r + " limit");
            assertTrue(requests.containsKey(r), where + ": no " + r + " request");
            assertTrue(requests.get(r).getNumericalAmount().compareTo(limits.get(r).getNumericalAmount()) <= 0,
                    where + ": " + r + " request above its limit");
        }
    }

    private static void assertLockedDown(PodSecurityContext pod, Container c, String where) {
        SecurityContext sc = c.getSecurityContext();
        assertNotNull(sc, where + ": no securityContext");
        boolean nonRoot = Boolean.TRUE.equals(sc.getRunAsNonRoot())
                || (sc.getRunAsNonRoot() == null && Boolean.TRUE.equals(pod.getRunAsNonRoot()));
        assertTrue(nonRoot, where + ": runAsNonRoot is not true");
        Long uid = sc.getRunAsUser() != null ? sc.getRunAsUser() : pod.getRunAsUser();
        assertTrue(uid == null || uid != 0L, where + ": runs as uid 0");
        assertEquals(Boolean.TRUE, sc.getReadOnlyRootFilesystem(), where + ": readOnlyRootFilesystem");
        assertEquals(Boolean.FALSE, sc.getAllowPrivilegeEscalation(), where + ": allowPrivilegeEscalation");
        assertFalse(Boolean.TRUE.equals(sc.getPrivileged()), where + ": privileged");
        assertNotNull(sc.getCapabilities(), where + ": capabilities not dropped");
        assertEquals(List.of("ALL"), sc.getCapabilities().getDrop(), where + ": capabilities.drop");
        assertTrue(sc.getCapabilities().getAdd() == null || sc.getCapabilities().getAdd().isEmpty(),
                where + ": adds capabilities");
    }

    @ParameterizedTest(name = "k8s/{0}")
    @MethodSource("applied")
    void everyServiceSelectsAWorkloadAndItsPort(String dir) {
        Manifests m = Manifests.of(dir);
        List<Service> services = m.all(Service.class);
        assertFalse(services.isEmpty());
        for (Service s : services) {
            Map<String, String> selector = s.getSpec().getSelector();
            assertTrue(selector != null && !selector.isEmpty(), "Service " + s.getMetadata().getName() + " selects nothing");
            List<Manifests.Workload> selected = m.workloads().stream()
                    .filter(w -> Objects.equals(w.owner().getMetadata().getNamespace(), s.getMetadata().getNamespace()))
                    .filter(w -> w.podLabels().entrySet().containsAll(selector.entrySet()))
                    .toList();
            assertEquals(1, selected.size(), "Service " + s.getMetadata().getName() + " must select exactly one workload, selects "
                    + selected.stream().map(Manifests.Workload::name).toList());
            for (ServicePort port : s.getSpec().getPorts()) {
                IntOrString target = port.getTargetPort() != null ? port.getTargetPort() : new IntOrString(port.getPort());
                boolean found = selected.get(0).pod().getContainers().stream().anyMatch(c -> containerPort(c, target).isPresent());
                assertTrue(found, "Service " + s.getMetadata().getName() + " port " + port.getName()
                        + " targets " + target + ", which no container of " + selected.get(0).name() + " declares");
            }
        }
    }

    @ParameterizedTest(name = "k8s/{0}")
    @MethodSource("applied")
    void imagesPortsAccountsAndConfigMatchTheServices(String dir) {
        Manifests m = Manifests.of(dir);
        String version = Repo.projectVersion();
        for (String svc : Repo.SERVICES) {
            String name = svc + "-service";
            int port = Repo.port(svc);
            Deployment d = m.get(Deployment.class, name);
            assertEquals(List.of(name), d.getSpec().getTemplate().getSpec().getContainers().stream().map(Container::getName).toList(),
                    name + ": one container named after the service");
            Container c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
            assertEquals("ghcr.io/gpumeter/" + name + ":" + version, c.getImage(), name + ": image and tag");
            ContainerPort http = containerPort(c, new IntOrString("http")).orElseThrow(() -> new AssertionError(name + ": no port named http"));
            assertEquals(port, http.getContainerPort(), name + ": container port vs quarkus.http.port");
            ContainerPort management = containerPort(c, new IntOrString("management"))
                    .orElseThrow(() -> new AssertionError(name + ": no port named management"));
            assertEquals(Repo.managementPort(svc), management.getContainerPort(), name + ": container port vs quarkus.management.port");

            Service s = m.get(Service.class, name);
            assertEquals(List.of(port, Repo.managementPort(svc)), s.getSpec().getPorts().stream().map(ServicePort::getPort).toList(),
                    name + ": Service ports");
            assertEquals(List.of("http", "management"), s.getSpec().getPorts().stream().map(ServicePort::getName).toList(),
                    name + ": Service port names");
            // Each service presents its own token, addressed to the services it calls; the ledger calls none.
            Optional<EnvVar> token = Optional.ofNullable(c.getEnv()).orElse(List.of()).stream()
                    .filter(e -> e.getName().equals("GPUMETER_AUTH_SERVICE_TOKEN")).findFirst();
            if (svc.equals("ledger")) {
                assertTrue(token.isEmpty(), name + ": the ledger calls no service and holds no service token");
            } else {
                assertEquals("gpumeter-auth", token.orElseThrow().getValueFrom().getSecretKeyRef().getName(), name + ": token Secret");
                assertEquals(svc + "-token", token.orElseThrow().getValueFrom().getSecretKeyRef().getKey(), name + ": its own token");
            }

            assertEquals(name, d.getSpec().getTemplate().getSpec().getServiceAccountName(), name + ": ServiceAccount");
            m.get(ServiceAccount.class, name);
            List<String> configMaps = c.getEnvFrom().stream().map(EnvFromSource::getConfigMapRef).filter(Objects::nonNull)
                    .map(r -> r.getName()).toList();
            List<String> secrets = c.getEnvFrom().stream().map(EnvFromSource::getSecretRef).filter(Objects::nonNull)
                    .map(r -> r.getName()).toList();
            assertEquals(List.of(svc + "-config"), configMaps, name + ": envFrom ConfigMap");
            ConfigMap config = m.get(ConfigMap.class, svc + "-config");
            if (!Repo.usesDatabase(svc)) {
                assertEquals(List.of(), secrets, name + ": keeps no database and has no credentials");
                assertTrue(config.getData().keySet().stream().noneMatch(k -> k.startsWith("QUARKUS_DATASOURCE_")),
                        svc + "-config: no datasource");
                continue;
            }
            assertEquals(List.of(svc + "-config-creds"), secrets, name + ": envFrom Secret");
            assertTrue(config.getData().containsKey("QUARKUS_DATASOURCE_REACTIVE_URL"), svc + "-config: reactive URL");
            assertTrue(config.getData().containsKey("QUARKUS_DATASOURCE_JDBC_URL"), svc + "-config: JDBC URL");
            Secret creds = m.get(Secret.class, svc + "-config-creds");
            assertTrue(keys(creds).containsAll(Set.of("QUARKUS_DATASOURCE_USERNAME", "QUARKUS_DATASOURCE_PASSWORD")),
                    svc + "-config-creds: database login");
        }
        for (Manifests.Workload w : m.workloads()) {
            for (Container c : w.pod().getContainers()) {
                assertTrue(c.getImage().startsWith("ghcr.io/gpumeter/") || c.getImage().startsWith("docker.io/library/postgres:"),
                        w.name() + ": unexpected image " + c.getImage());
                assertFalse(c.getImage().endsWith(":latest") || !c.getImage().contains(":"), w.name() + ": unpinned image " + c.getImage());
            }
        }
    }

    @ParameterizedTest(name = "k8s/{0}")
    @MethodSource("applied")
    void theConsoleRunsLikeTheServicesAndHoldsNoSecretButItsTwoKeysNorRole(String dir) {
        Manifests m = Manifests.of(dir);
        String name = Repo.CONSOLE;
        Deployment d = m.get(Deployment.class, name);
        List<Container> containers = d.getSpec().getTemplate().getSpec().getContainers();
        assertEquals(List.of(name), containers.stream().map(Container::getName).toList(), "one container named console");
        Container c = containers.get(0);
        assertEquals("ghcr.io/gpumeter/console:" + Repo.projectVersion(), c.getImage(), "image and tag");
        assertEquals(Repo.port(name), containerPort(c, new IntOrString("http")).orElseThrow().getContainerPort(), "http port");
        assertEquals(Repo.managementPort(name), containerPort(c, new IntOrString("management")).orElseThrow().getContainerPort(),
                "management port");
        assertHttpProbe(c, c.getLivenessProbe(), "/q/health/live", "console liveness");
        assertHttpProbe(c, c.getReadinessProbe(), "/q/health/ready", "console readiness");
        assertEquals(new IntOrString("management"), c.getReadinessProbe().getHttpGet().getPort(), "probes use the management port");
        Service s = m.get(Service.class, name);
        assertEquals(List.of(Repo.port(name), Repo.managementPort(name)), s.getSpec().getPorts().stream().map(ServicePort::getPort).toList());
        assertEquals(List.of("http", "management"), s.getSpec().getPorts().stream().map(ServicePort::getName).toList());

        // It owns no data and calls the services with its users' tokens: no database login or token of its own. From
        // the Secret it reads only the suite's public key (to verify a token before signing anyone in) and the key that
        // seals its sessions.
        assertEquals(List.of(name + "-config"), c.getEnvFrom().stream().map(EnvFromSource::getConfigMapRef).filter(Objects::nonNull)
                .map(r -> r.getName()).toList(), "envFrom ConfigMap");
        assertTrue(c.getEnvFrom().stream().allMatch(f -> f.getSecretRef() == null), "console: no whole Secret");
        Map<String, String> fromSecrets = new TreeMap<>();
        for (EnvVar e : Optional.ofNullable(c.getEnv()).orElse(List.of())) {
            if (e.getValueFrom() != null) {
                var ref = e.getValueFrom().getSecretKeyRef();
                assertTrue(ref != null && "gpumeter-auth".equals(ref.getName()) && !Boolean.TRUE.equals(ref.getOptional()),
                        "console: " + e.getName() + " from the required Secret gpumeter-auth");
                fromSecrets.put(e.getName(), ref.getKey());
            }
        }
        assertEquals(Map.of("MP_JWT_VERIFY_PUBLICKEY", "public-key", "GPUMETER_CONSOLE_SESSION_KEY", "console-session-key"), fromSecrets,
                "console: its two keys and nothing else from a Secret");
        assertTrue(m.get(ConfigMap.class, name + "-config").getData().keySet().stream().noneMatch(k -> k.startsWith("QUARKUS_DATASOURCE")),
                "console: no database");
        assertEquals(name, d.getSpec().getTemplate().getSpec().getServiceAccountName(), "its own ServiceAccount");
        assertEquals(Boolean.FALSE, d.getSpec().getTemplate().getSpec().getAutomountServiceAccountToken(), "no API token mounted");
        for (HasMetadata o : m.objects()) {
            if (o instanceof io.fabric8.kubernetes.api.model.rbac.RoleBinding rb) {
                assertTrue(rb.getSubjects().stream().noneMatch(x -> name.equals(x.getName())), "console: no Role");
            } else if (o instanceof io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding crb) {
                assertTrue(crb.getSubjects().stream().noneMatch(x -> name.equals(x.getName())), "console: no ClusterRole");
            }
        }
    }

    @ParameterizedTest(name = "k8s/{0}")
    @MethodSource("applied")
    void theMcpServerRunsLikeTheServicesAndHoldsNoSecretButTheKeysItVerifiesAndSignsWithNorRole(String dir) {
        Manifests m = Manifests.of(dir);
        String name = Repo.name(Repo.MCP);
        Deployment d = m.get(Deployment.class, name);
        Container c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertEquals("ghcr.io/gpumeter/mcp-service:" + Repo.projectVersion(), c.getImage(), "image and tag");
        assertEquals(Repo.port(Repo.MCP), containerPort(c, new IntOrString("http")).orElseThrow().getContainerPort(), "http port");
        assertEquals(Repo.managementPort(Repo.MCP), containerPort(c, new IntOrString("management")).orElseThrow().getContainerPort(),
                "management port");
        assertHttpProbe(c, c.getReadinessProbe(), "/q/health/ready", "mcp readiness");
        // It calls the services with a token minted per call for its caller (docs/adr/0026): the key it verifies callers
        // with and the key it signs those tokens with, no token or database login of its own.
        Map<String, String> fromSecrets = new TreeMap<>();
        for (EnvVar e : Optional.ofNullable(c.getEnv()).orElse(List.of())) {
            if (e.getValueFrom() != null) {
                var ref = e.getValueFrom().getSecretKeyRef();
                assertTrue(ref != null && "gpumeter-auth".equals(ref.getName()) && !Boolean.TRUE.equals(ref.getOptional()),
                        name + ": " + e.getName() + " from the required Secret gpumeter-auth");
                fromSecrets.put(e.getName(), ref.getKey());
            }
        }
        assertEquals(Map.of("MP_JWT_VERIFY_PUBLICKEY", "public-key", "GPUMETER_MCP_SIGNING_KEY", "mcp-signing-key"), fromSecrets,
                name + ": its two keys and nothing else from a Secret");
        assertTrue(c.getEnvFrom().stream().allMatch(f -> f.getSecretRef() == null), name + ": no whole Secret");
        assertTrue(m.get(ConfigMap.class, name + "-config").getData().keySet().stream().noneMatch(k -> k.startsWith("QUARKUS_DATASOURCE")),
                name + ": no database");
        assertEquals(Boolean.FALSE, d.getSpec().getTemplate().getSpec().getAutomountServiceAccountToken(), "no API token mounted");
        for (HasMetadata o : m.objects()) {
            if (o instanceof io.fabric8.kubernetes.api.model.rbac.RoleBinding rb) {
                assertTrue(rb.getSubjects().stream().noneMatch(x -> name.equals(x.getName())), name + ": no Role");
            } else if (o instanceof io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding crb) {
                assertTrue(crb.getSubjects().stream().noneMatch(x -> name.equals(x.getName())), name + ": no ClusterRole");
            }
        }
    }

    @ParameterizedTest(name = "k8s/{0}")
    @MethodSource("applied")
    void everyReferencedConfigMapSecretAndAccountExists(String dir) {
        Manifests m = Manifests.of(dir);
        for (Manifests.Workload w : m.workloads()) {
            String account = w.pod().getServiceAccountName();
            if (account != null) {
                assertTrue(m.find("ServiceAccount", account).isPresent(), w.name() + ": ServiceAccount " + account + " missing");
            }
            for (Container c : w.pod().getContainers()) {
                for (EnvFromSource from : Optional.ofNullable(c.getEnvFrom()).orElse(List.of())) {
                    if (from.getConfigMapRef() != null) {
                        assertTrue(m.find("ConfigMap", from.getConfigMapRef().getName()).isPresent(),
                                w.name() + ": ConfigMap " + from.getConfigMapRef().getName() + " missing");
                    }
                    if (from.getSecretRef() != null) {
                        assertTrue(m.find("Secret", from.getSecretRef().getName()).isPresent(),
                                w.name() + ": Secret " + from.getSecretRef().getName() + " missing");
                    }
                }
                for (EnvVar e : Optional.ofNullable(c.getEnv()).orElse(List.of())) {
                    if (e.getValueFrom() != null && e.getValueFrom().getSecretKeyRef() != null) {
                        String secret = e.getValueFrom().getSecretKeyRef().getName();
                        String key = e.getValueFrom().getSecretKeyRef().getKey();
                        Optional<HasMetadata> found = m.find("Secret", secret);
                        if (found.isPresent()) {
                            assertTrue(keys((Secret) found.get()).contains(key), w.name() + ": Secret " + secret + " has no key " + key);
                        } else {
                            assertTrue(EXTERNAL_EVERYWHERE.contains(secret)
                                            || dir.equals("overlays/prod") && EXTERNAL_SECRETS.contains(secret),
                                    w.name() + ": Secret " + secret + " is neither rendered nor a documented external one");
                        }
                    }
                    if (e.getValueFrom() != null && e.getValueFrom().getConfigMapKeyRef() != null) {
                        fail(w.name() + ": env from a ConfigMap key; use envFrom <svc>-config");
                    }
                }
            }
            for (Volume v : Optional.ofNullable(w.pod().getVolumes()).orElse(List.of())) {
                if (v.getConfigMap() != null) {
                    assertTrue(m.find("ConfigMap", v.getConfigMap().getName()).isPresent(), w.name() + ": volume ConfigMap missing");
                }
                if (v.getSecret() != null) {
                    assertTrue(m.find("Secret", v.getSecret().getSecretName()).isPresent(), w.name() + ": volume Secret missing");
                }
            }
        }
    }

    @ParameterizedTest(name = "k8s/{0}")
    @MethodSource("applied")
    void everyObjectIsLabelledAndInTheOverlaysNamespace(String dir) {
        Manifests m = Manifests.of(dir);
        Set<String> clusterScoped = Set.of("Namespace", "ClusterRole", "ClusterRoleBinding");
        List<String> namespaces = m.kind("Namespace").stream().map(n -> n.getMetadata().getName()).toList();
        if (dir.startsWith("overlays/")) {
            assertEquals(1, namespaces.size(), "an overlay creates its one namespace");
        } else {
            assertTrue(namespaces.isEmpty(), "the base sets no namespace");
        }
        for (HasMetadata o : m.objects()) {
            String id = o.getKind() + "/" + o.getMetadata().getName();
            Map<String, String> labels = Optional.ofNullable(o.getMetadata().getLabels()).orElse(Map.of());
            assertEquals("gpumeter", labels.get("app.kubernetes.io/part-of"), id + ": app.kubernetes.io/part-of");
            if (clusterScoped.contains(o.getKind())) {
                assertEquals(null, o.getMetadata().getNamespace(), id + " is cluster-scoped");
            } else if (!namespaces.isEmpty()) {
                assertEquals(namespaces.get(0), o.getMetadata().getNamespace(), id + ": namespace");
            }
        }
    }

    static Set<String> keys(Secret s) {
        Set<String> keys = new java.util.HashSet<>();
        Optional.ofNullable(s.getData()).ifPresent(d -> keys.addAll(d.keySet()));
        Optional.ofNullable(s.getStringData()).ifPresent(d -> keys.addAll(d.keySet()));
        return keys;
    }

    static Optional<ContainerPort> containerPort(Container c, IntOrString port) {
        return Optional.ofNullable(c.getPorts()).orElse(List.of()).stream()
                .filter(p -> port.getStrVal() != null ? port.getStrVal().equals(p.getName())
                        : port.getIntVal().equals(p.getContainerPort()))
                .findFirst();
    }
}
