package io.gpumeter.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** docs/deploy.md (the README's "Deploy to Kubernetes") names only what exists and everything a reader acts on. */
class DeployDocTest {

    private static final Path DOC = Repo.root().resolve("docs/deploy.md");

    @Test
    void everyPathItNamesExists() {
        String doc = Repo.read(DOC);
        assertTrue(doc.startsWith("## Deploy to Kubernetes\n"), "the README section's heading");
        Matcher m = Pattern.compile("`(k8s/[^`\\s]*)`").matcher(doc);
        int paths = 0;
        while (m.find()) {
            Path p = Repo.root().resolve(m.group(1).replace("<svc>", "collector"));
            assertTrue(Files.exists(p), "docs/deploy.md names " + m.group(1) + ", which does not exist");
            paths++;
        }
        assertTrue(paths >= 8, "paths named: " + paths);
    }

    @Test
    void itListsEveryAlertDashboardRecordingRuleAndSecretToCreate() throws IOException {
        String doc = Repo.read(DOC);
        for (JsonNode alert : Monitoring.alerts()) {
            assertTrue(doc.contains("`" + alert.get("alert").asText() + "`"), "alert " + alert.get("alert").asText() + " undocumented");
        }
        for (String record : Monitoring.recordNames()) {
            assertTrue(doc.contains("`" + record + "`"), "recording rule " + record + " undocumented");
        }
        for (String file : DashboardsTest.dashboards().keySet()) {
            assertTrue(doc.contains("`" + file + "`"), "dashboard " + file + " undocumented");
        }
        for (String secret : ManifestsTest.EXTERNAL_SECRETS) {
            assertTrue(doc.contains("create secret generic " + secret), "how to create the Secret " + secret);
        }
    }

    @Test
    void itShowsHowToFillEveryTokenKeyTheDeploymentsRead() {
        String doc = Repo.read(DOC);
        int keys = 0;
        for (Manifests.Workload w : Manifests.of("overlays/prod").workloads()) {
            for (var c : w.pod().getContainers()) {
                for (var e : java.util.Optional.ofNullable(c.getEnv()).orElse(java.util.List.of())) {
                    var ref = e.getValueFrom() == null ? null : e.getValueFrom().getSecretKeyRef();
                    if (ref != null && ref.getName().equals("gpumeter-auth")) {
                        assertTrue(doc.contains("--from-file=" + ref.getKey() + "="),
                                w.name() + " reads gpumeter-auth's key " + ref.getKey() + ", which docs/deploy.md never fills");
                        keys++;
                    }
                }
            }
        }
        assertTrue(keys >= 9, "gpumeter-auth keys read: " + keys);
    }
}
