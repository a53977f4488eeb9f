package io.gpumeter.deploy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * k8s/components/scrape-shards, as k8s/examples/prod-scrape-shards applies it: a StatefulSet of collectors that share
 * the dcgm-exporters by pod index, beside the collector Deployment that keeps the watch.
 */
class ScrapeShardsTest {

    private static final String EXAMPLE = "examples/prod-scrape-shards";

    @Test
    void eachScraperTakesItsPodIndexAsItsShardOfAsManyShardsAsThereAreReplicas() {
        StatefulSet scrapers = Manifests.of(EXAMPLE).get(StatefulSet.class, "collector-scraper");
        Map<String, EnvVar> env = env(scrapers.getSpec().getTemplate().getSpec().getContainers().get(0));
        assertEquals(String.valueOf(scrapers.getSpec().getReplicas()), env.get("GPUMETER_COLLECTOR_DCGM_SHARDS").getValue(),
                "a shard per replica: fewer leave nodes unscraped, more leave shards nobody takes");
        assertEquals("metadata.labels['apps.kubernetes.io/pod-index']",
                env.get("GPUMETER_COLLECTOR_DCGM_SHARD_INDEX").getValueFrom().getFieldRef().getFieldPath());
        assertEquals("true", env.get("GPUMETER_COLLECTOR_DCGM_DISCOVER").getValue());
        for (String off : List.of("GPUMETER_COLLECTOR_WATCH_ENABLED", "GPUMETER_COLLECTOR_VLLM_DISCOVER",
                "GPUMETER_COLLECTOR_HOST_KUBELET_DISCOVER", "GPUMETER_COLLECTOR_HOST_NODE_EXPORTER_DISCOVER")) {
            assertEquals("false", env.get(off).getValue(), off + ": the Deployment's work, not a scraper's");
        }
        assertEquals("Parallel", scrapers.getSpec().getPodManagementPolicy());
        assertEquals("collector-scraper", scrapers.getSpec().getServiceName());
        assertEquals("None", Manifests.of(EXAMPLE).get(Service.class, "collector-scraper").getSpec().getClusterIP());
    }

    @Test
    void aScraperRunsTheCollectorsContainerWithItsSettingsAndAccount() {
        Manifests m = Manifests.of(EXAMPLE);
        var collectorPod = m.get(Deployment.class, "collector-service").getSpec().getTemplate().getSpec();
        var scraperPod = m.get(StatefulSet.class, "collector-scraper").getSpec().getTemplate().getSpec();
        Container collector = collectorPod.getContainers().get(0);
        Container scraper = scraperPod.getContainers().get(0);
        assertEquals(collectorPod.getServiceAccountName(), scraperPod.getServiceAccountName(), "the same reading rights");
        assertEquals(collectorPod.getSecurityContext(), scraperPod.getSecurityContext());
        assertEquals(collectorPod.getVolumes(), scraperPod.getVolumes());
        assertEquals(collector.getImage(), scraper.getImage());
        assertEquals(collector.getEnvFrom(), scraper.getEnvFrom(), "collector-config");
        assertEquals(collector.getPorts(), scraper.getPorts());
        assertEquals(collector.getResources(), scraper.getResources());
        assertEquals(collector.getSecurityContext(), scraper.getSecurityContext());
        assertEquals(collector.getVolumeMounts(), scraper.getVolumeMounts());
        assertEquals(List.of(collector.getStartupProbe(), collector.getLivenessProbe(), collector.getReadinessProbe()),
                List.of(scraper.getStartupProbe(), scraper.getLivenessProbe(), scraper.getReadinessProbe()));
        Map<String, EnvVar> scraperEnv = env(scraper);
        for (EnvVar e : Optional.ofNullable(collector.getEnv()).orElse(List.of())) {
            assertEquals(e, scraperEnv.get(e.getName()), e.getName() + ": the JVM's options and the token as the collector's");
        }
    }

    @Test
    void theCollectorsServiceAndDeploymentSelectNoScraper() {
        Manifests m = Manifests.of(EXAMPLE);
        Map<String, String> scraperLabels = m.get(StatefulSet.class, "collector-scraper").getSpec().getTemplate()
                .getMetadata().getLabels();
        Map<String, String> service = m.get(Service.class, "collector-service").getSpec().getSelector();
        Map<String, String> deployment = m.get(Deployment.class, "collector-service").getSpec().getSelector().getMatchLabels();
        assertFalse(scraperLabels.entrySet().containsAll(service.entrySet()), "pushes go to the Deployment's pods only");
        assertFalse(scraperLabels.entrySet().containsAll(deployment.entrySet()), "no two controllers claim one pod");
        assertTrue(m.get(StatefulSet.class, "collector-scraper").getSpec().getSelector().getMatchLabels().entrySet()
                .stream().allMatch(e -> e.getValue().equals(scraperLabels.get(e.getKey()))));
    }

    private static Map<String, EnvVar> env(Container c) {
        return Optional.ofNullable(c.getEnv()).orElse(List.of()).stream()
                .collect(Collectors.toMap(EnvVar::getName, e -> e));
    }
}
