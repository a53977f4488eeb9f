package io.gpumeter.deploy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What makes dev a try-out and prod a production deployment. */
class OverlaysTest {

    @Test
    void devRunsOneReplicaEachAndItsOwnPostgres() {
        Manifests dev = Manifests.of("overlays/dev");
        for (String svc : Repo.SERVICES) {
            assertEquals(1, dev.get(Deployment.class, svc + "-service").getSpec().getReplicas(), svc + " replicas in dev");
        }
        StatefulSet postgres = dev.get(StatefulSet.class, "postgres");
        assertEquals(1, postgres.getSpec().getReplicas());
        assertFalse(postgres.getSpec().getVolumeClaimTemplates().isEmpty(), "PostgreSQL keeps its data on a volume");
        Service service = dev.get(Service.class, "postgres");
        assertEquals(5432, service.getSpec().getPorts().get(0).getPort());

        Container db = postgres.getSpec().getTemplate().getSpec().getContainers().get(0);
        String dbName = env(db, "POSTGRES_DB").getValue();
        Secret dbCreds = dev.get(Secret.class, secretOf(env(db, "POSTGRES_PASSWORD")));
        String password = decode(dbCreds, env(db, "POSTGRES_PASSWORD").getValueFrom().getSecretKeyRef().getKey());
        String user = decode(dbCreds, env(db, "POSTGRES_USER").getValueFrom().getSecretKeyRef().getKey());
        for (String svc : Repo.SERVICES) {
            Map<String, String> config = dev.get(ConfigMap.class, svc + "-config").getData();
            if (!Repo.usesDatabase(svc)) {
                assertFalse(config.containsKey("QUARKUS_DATASOURCE_REACTIVE_URL"), svc + ": keeps no database");
                continue;
            }
            assertEquals("postgresql://postgres:5432/" + dbName, config.get("QUARKUS_DATASOURCE_REACTIVE_URL"), svc);
            assertEquals("jdbc:postgresql://postgres:5432/" + dbName, config.get("QUARKUS_DATASOURCE_JDBC_URL"), svc);
            Secret creds = dev.get(Secret.class, svc + "-config-creds");
            assertEquals(user, decode(creds, "QUARKUS_DATASOURCE_USERNAME"), svc + ": database user");
            assertEquals(password, decode(creds, "QUARKUS_DATASOURCE_PASSWORD"), svc + ": database password");
        }
        assertTrue(dev.kind("ServiceMonitor").isEmpty() && dev.kind("PrometheusRule").isEmpty(),
                "dev needs no Prometheus Operator");
    }

    @Test
    void prodRunsReplicasBehindDisruptionBudgetsOnAnExternalDatabase() {
        Manifests prod = Manifests.of("overlays/prod");
        assertTrue(prod.all(StatefulSet.class).isEmpty(), "prod runs no database of its own");
        List<PodDisruptionBudget> budgets = prod.all(PodDisruptionBudget.class);
        for (String svc : Repo.SERVICES) {
            Deployment d = prod.get(Deployment.class, svc + "-service");
            int replicas = d.getSpec().getReplicas();
            assertTrue(replicas >= 2, svc + " replicas in prod: " + replicas);
            Map<String, String> podLabels = d.getSpec().getTemplate().getMetadata().getLabels();
            List<PodDisruptionBudget> covering = budgets.stream()
                    .filter(b -> podLabels.entrySet().containsAll(b.getSpec().getSelector().getMatchLabels().entrySet()))
                    .toList();
            assertEquals(1, covering.size(), svc + ": one PodDisruptionBudget");
            PodDisruptionBudget pdb = covering.get(0);
            assertNotNull(pdb.getSpec().getMinAvailable(), svc + ": minAvailable");
            int min = pdb.getSpec().getMinAvailable().getIntVal();
            assertTrue(min >= 1 && min < replicas, svc + ": a drain may take one pod but never all");

            Container c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
            if (!Repo.usesDatabase(svc)) {
                assertTrue(c.getEnv().stream().noneMatch(v -> v.getName().startsWith("QUARKUS_DATASOURCE_")),
                        svc + ": keeps no database");
            } else {
                for (Map.Entry<String, String> e : Map.of("QUARKUS_DATASOURCE_REACTIVE_URL", "reactive-url",
                        "QUARKUS_DATASOURCE_JDBC_URL", "jdbc-url", "QUARKUS_DATASOURCE_USERNAME", "username",
                        "QUARKUS_DATASOURCE_PASSWORD", "password").entrySet()) {
                    EnvVar var = env(c, e.getKey());
                    assertEquals("gpumeter-postgres", secretOf(var), svc + ": " + e.getKey() + " from the database Secret");
                    assertEquals(e.getValue(), var.getValueFrom().getSecretKeyRef().getKey(), svc + ": " + e.getKey() + " key");
                }
            }
            assertNotNull(d.getSpec().getTemplate().getSpec().getTopologySpreadConstraints(), svc + ": replicas spread over nodes");
        }
        // The shared Secrets are the platform team's: prod must not overwrite them with placeholders.
        assertTrue(prod.find("Secret", "gpumeter-postgres").isEmpty());
        assertTrue(prod.find("Secret", "gpumeter-alertmanager-webhook").isEmpty());
    }

    @ParameterizedTest(name = "k8s/{0}")
    @MethodSource("io.gpumeter.deploy.ManifestsTest#applied")
    void alertServiceRequiresTheWebhookTokenFromItsSecretAndNoManifestShipsOne(String dir) {
        Manifests m = Manifests.of(dir);
        Container alert = m.get(Deployment.class, "alert-service").getSpec().getTemplate().getSpec().getContainers().get(0);
        EnvVar token = env(alert, "GPUMETER_ALERT_WEBHOOK_TOKEN");
        assertEquals("gpumeter-alertmanager-webhook", secretOf(token), "the Secret Alertmanager sends the token from");
        assertEquals("token", token.getValueFrom().getSecretKeyRef().getKey());
        assertEquals(Boolean.FALSE, token.getValueFrom().getSecretKeyRef().getOptional(),
                "required: without the Secret the pod does not start, rather than running with an open webhook");
        assertEquals(1, alert.getEnv().stream().filter(e -> e.getName().equals(token.getName())).count());
        for (Secret s : m.all(Secret.class)) {
            assertFalse(ManifestsTest.keys(s).contains("GPUMETER_ALERT_WEBHOOK_TOKEN"),
                    s.getMetadata().getName() + " ships a webhook token, empty or fixed, that would shadow or replace the Secret");
        }
        assertTrue(m.find("Secret", "gpumeter-alertmanager-webhook").isEmpty(), "k8s/" + dir + " renders the token's Secret");
    }

    @Test
    void devGeneratesAFreshWebhookTokenOutsideTheRepository() {
        Tools.kubectl();
        Path script = Repo.k8s().resolve("overlays/dev/generate-secrets.sh");
        assertTrue(Files.isExecutable(script), script + " is executable");
        List<String> tokens = new ArrayList<>();
        for (int run = 0; run < 2; run++) {
            Tools.Result result = Tools.run(Repo.k8s(), List.of("bash", script.toString(), "--dry-run",
                    "--alertmanager-namespace", "monitoring"));
            assertTrue(result.ok(), result.output());
            List<Secret> secrets = Manifests.parse(result.stdout()).stream().map(Secret.class::cast).toList();
            assertEquals(List.of("gpumeter-dev", "monitoring"), secrets.stream().map(s -> s.getMetadata().getNamespace()).toList());
            for (Secret s : secrets) {
                assertEquals("gpumeter-alertmanager-webhook", s.getMetadata().getName());
                assertEquals(decode(secrets.get(0), "token"), decode(s, "token"), "one token for alert-service and Alertmanager");
            }
            String token = decode(secrets.get(0), "token");
            assertTrue(token.matches("[A-Za-z0-9_-]{43}"), "256 random bits, base64url: " + token);
            tokens.add(token);
        }
        assertFalse(tokens.get(0).equals(tokens.get(1)), "every run draws its own token");
        assertTrue(Repo.read(Repo.k8s().resolve("overlays/dev/kustomization.yaml")).contains("generate-secrets.sh"),
                "the overlay says to run it");
    }

    @Test
    void prodIsScrapedAndAlertedOn() {
        Manifests prod = Manifests.of("overlays/prod");
        List<GenericKubernetesResource> monitors = prod.generic("ServiceMonitor");
        for (Service s : prod.all(Service.class)) {
            if ("None".equals(s.getSpec().getClusterIP())) {
                // a headless Service only names pods for each other (console-peers); the pods are scraped through their
                // own Service, and a port named "management" here would have them scraped twice
                assertTrue(s.getSpec().getPorts().stream().noneMatch(p -> "management".equals(p.getName())),
                        s.getMetadata().getName() + ": no port named management");
                continue;
            }
            Map<String, String> labels = s.getMetadata().getLabels();
            Set<String> portNames = s.getSpec().getPorts().stream().map(p -> p.getName()).collect(Collectors.toSet());
            List<GenericKubernetesResource> scraping = monitors.stream().filter(sm -> {
                @SuppressWarnings("unchecked")
                Map<String, Object> selector = (Map<String, Object>) sm.get("spec", "selector");
                @SuppressWarnings("unchecked")
                Map<String, String> match = (Map<String, String>) selector.get("matchLabels");
                return labels.entrySet().containsAll(match.entrySet());
            }).toList();
            assertEquals(1, scraping.size(), "Service " + s.getMetadata().getName() + ": one ServiceMonitor");
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> endpoints = (List<Map<String, Object>>) scraping.get(0).get("spec", "endpoints");
            for (Map<String, Object> e : endpoints) {
                assertTrue(portNames.contains((String) e.get("port")), s.getMetadata().getName() + ": ServiceMonitor port");
                assertEquals("management", e.get("port"), s.getMetadata().getName() + ": metrics are scraped on the management port");
                assertEquals("/q/metrics", e.get("path"), s.getMetadata().getName() + ": metrics path");
            }
        }
        assertEquals(Repo.APPS.size(), monitors.size(), "one ServiceMonitor per service and the console");
        List<GenericKubernetesResource> rules = prod.generic("PrometheusRule");
        assertEquals(1, rules.size());
        assertEquals("monitoring.coreos.com/v1", rules.get(0).getApiVersion());
        assertEquals("monitoring.coreos.com/v1", monitors.get(0).getApiVersion());
    }

    static EnvVar env(Container c, String name) {
        return Optional.ofNullable(c.getEnv()).orElse(List.of()).stream().filter(e -> e.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError(c.getName() + " has no env " + name));
    }

    static String secretOf(EnvVar var) {
        assertNotNull(var.getValueFrom(), var.getName() + " is not taken from a Secret");
        assertNotNull(var.getValueFrom().getSecretKeyRef(), var.getName() + " is not taken from a Secret");
        return var.getValueFrom().getSecretKeyRef().getName();
    }

    static String decode(Secret s, String key) {
        if (s.getStringData() != null && s.getStringData().containsKey(key)) {
            return s.getStringData().get(key);
        }
        String encoded = Optional.ofNullable(s.getData()).map(d -> d.get(key))
                .orElseThrow(() -> new AssertionError("Secret " + s.getMetadata().getName() + " has no " + key));
        return new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
    }
}
