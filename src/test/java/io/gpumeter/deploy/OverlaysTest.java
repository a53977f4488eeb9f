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

import java.nio.charset.StandardCharsets;
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
            assertEquals("postgresql://postgres:5432/" + dbName, config.get("QUARKUS_DATASOURCE_REACTIVE_URL"), svc);
            assertEquals("jdbc:postgresql://postgres:5432/" + dbName, config.get("QUARKUS_DATASOURCE_JDBC_URL"), svc);
            Secret creds = dev.get(Secret.class, svc + "-config-creds");
            assertEquals(user, decode(creds, "QUARKUS_DATASOURCE_USERNAME"), svc + ": database user");
            assertEquals(password, decode(creds, "QUARKUS_DATASOURCE_PASSWORD"), svc + ": database password");
        }
        assertFalse(decode(dev.get(Secret.class, "alert-config-creds"), "GPUMETER_ALERT_WEBHOOK_TOKEN").isEmpty(),
                "dev sets a webhook token");
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
            for (Map.Entry<String, String> e : Map.of("QUARKUS_DATASOURCE_REACTIVE_URL", "reactive-url",
                    "QUARKUS_DATASOURCE_JDBC_URL", "jdbc-url", "QUARKUS_DATASOURCE_USERNAME", "username",
                    "QUARKUS_DATASOURCE_PASSWORD", "password").entrySet()) {
                EnvVar var = env(c, e.getKey());
                assertEquals("gpumeter-postgres", secretOf(var), svc + ": " + e.getKey() + " from the database Secret");
                assertEquals(e.getValue(), var.getValueFrom().getSecretKeyRef().getKey(), svc + ": " + e.getKey() + " key");
            }
            assertNotNull(d.getSpec().getTemplate().getSpec().getTopologySpreadConstraints(), svc + ": replicas spread over nodes");
        }
        EnvVar token = env(prod.get(Deployment.class, "alert-service").getSpec().getTemplate().getSpec().getContainers().get(0),
                "GPUMETER_ALERT_WEBHOOK_TOKEN");
        assertEquals("gpumeter-alertmanager-webhook", secretOf(token));
        assertEquals("token", token.getValueFrom().getSecretKeyRef().getKey());
        // The shared Secrets are the platform team's: prod must not overwrite them with placeholders.
        assertTrue(prod.find("Secret", "gpumeter-postgres").isEmpty());
        assertTrue(prod.find("Secret", "gpumeter-alertmanager-webhook").isEmpty());
    }

    @Test
    void prodIsScrapedAndAlertedOn() {
        Manifests prod = Manifests.of("overlays/prod");
        List<GenericKubernetesResource> monitors = prod.generic("ServiceMonitor");
        for (Service s : prod.all(Service.class)) {
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
        assertEquals(Repo.SERVICES.size(), monitors.size(), "one ServiceMonitor per service");
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
