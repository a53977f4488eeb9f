package io.gpumeter.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** k8s/monitoring/alertmanager.yml: valid for amtool, and routes gpumeter's alerts to alert-service's webhook. */
class AlertmanagerConfigTest {

    private static final Path CONFIG = Repo.k8s().resolve("monitoring/alertmanager.yml");
    private static final String RECEIVER = "gpumeter-alert-service";

    @Test
    void amtoolAcceptsTheConfiguration() {
        Path amtool = Tools.amtool();
        Tools.Result result = Tools.run(CONFIG.getParent(), List.of(amtool.toString(), "check-config", CONFIG.getFileName().toString()));
        assertTrue(result.ok(), "amtool check-config:\n" + result.output());
        assertTrue(result.output().contains("SUCCESS"), result.output());
    }

    @Test
    void everyGpumeterAlertRoutesToAlertServiceAndOthersDoNot() {
        Path amtool = Tools.amtool();
        for (JsonNode alert : Monitoring.alerts()) {
            List<String> labels = new ArrayList<>(List.of("alertname=" + alert.get("alert").asText()));
            alert.path("labels").fields().forEachRemaining(e -> labels.add(e.getKey() + "=" + e.getValue().asText()));
            assertEquals(RECEIVER, route(amtool, labels), alert.get("alert").asText() + " is routed elsewhere");
        }
        assertEquals("default", route(amtool, List.of("alertname=KubePodCrashLooping", "severity=warning")),
                "alerts that are not gpumeter's stay with the platform's own receivers");
    }

    @Test
    void theReceiverCallsTheWebhookWithTheBearerTokenAlertServiceChecks() {
        JsonNode config = Yaml.read(CONFIG);
        JsonNode receiver = null;
        for (JsonNode r : config.path("receivers")) {
            if (r.path("name").asText().equals(RECEIVER)) {
                receiver = r;
            }
        }
        assertTrue(receiver != null, "no receiver " + RECEIVER);
        JsonNode webhook = receiver.path("webhook_configs").get(0);
        URI url = URI.create(webhook.path("url").asText());
        assertEquals("/api/v1/alertmanager/webhook", url.getPath());
        assertEquals(Repo.port("alert"), url.getPort());
        assertEquals("alert-service", url.getHost().split("\\.")[0]);
        assertTrue(webhook.path("send_resolved").asBoolean(), "resolved alerts undo runbook actions");

        JsonNode auth = webhook.path("http_config").path("authorization");
        assertEquals("Bearer", auth.path("type").asText());
        Path credentials = Path.of(auth.path("credentials_file").asText());
        // The Prometheus Operator mounts spec.secrets at /etc/alertmanager/secrets/<secret>/<key>; alert-service reads
        // the same Secret and key in prod.
        assertEquals(Path.of("/etc/alertmanager/secrets"), credentials.getParent().getParent());
        EnvVar token = OverlaysTest.env(Manifests.of("overlays/prod").get(Deployment.class, "alert-service")
                .getSpec().getTemplate().getSpec().getContainers().get(0), "GPUMETER_ALERT_WEBHOOK_TOKEN");
        assertEquals(credentials.getParent().getFileName().toString(), token.getValueFrom().getSecretKeyRef().getName());
        assertEquals(credentials.getFileName().toString(), token.getValueFrom().getSecretKeyRef().getKey());
        String namespace = Manifests.of("overlays/prod").kind("Namespace").get(0).getMetadata().getName();
        assertEquals("alert-service." + namespace + ".svc", url.getHost(), "the prod namespace's alert-service");

        JsonNode route = null;
        for (JsonNode r : config.path("route").path("routes")) {
            if (r.path("receiver").asText().equals(RECEIVER)) {
                route = r;
            }
        }
        assertTrue(route != null, "no route to " + RECEIVER);
        List<String> groupBy = new ArrayList<>();
        route.path("group_by").forEach(n -> groupBy.add(n.asText()));
        assertTrue(groupBy.containsAll(List.of("alertname", "node", "gpu_uuid")), "one notification per alert and GPU: " + groupBy);
        assertTrue(route.path("continue").asBoolean(), "continue: the platform's own routes see the alerts too");
    }

    private static String route(Path amtool, List<String> labels) {
        List<String> cmd = new ArrayList<>(List.of(amtool.toString(), "config", "routes", "test",
                "--config.file=" + CONFIG.getFileName()));
        cmd.addAll(labels);
        Tools.Result result = Tools.run(CONFIG.getParent(), cmd);
        assertTrue(result.ok(), "amtool config routes test " + labels + ":\n" + result.output());
        return result.stdout().strip();
    }
}
