package io.gpumeter.collector.governance;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.gpumeter.collector.kubernetes.Skip;
import io.gpumeter.common.fact.WatchEventType;

import java.time.Instant;

/** Turns one watched governance object into its fact, or skips it with a reason. */
public final class GovernanceTranslator {

    private GovernanceTranslator() {
    }

    /** True for the objects this translator reads: Kueue and Volcano resources and Events. */
    public static boolean handles(HasMetadata object) {
        return object instanceof GenericKubernetesResource || object instanceof Event
                || object instanceof io.fabric8.kubernetes.api.model.events.v1.Event;
    }

    public static Object translate(WatchEventType type, HasMetadata object, Instant observedAt) {
        if (object instanceof Event e) {
            requireLive(type);
            return EventTranslator.core(e, observedAt);
        }
        if (object instanceof io.fabric8.kubernetes.api.model.events.v1.Event e) {
            requireLive(type);
            return EventTranslator.eventsV1(e, observedAt);
        }
        GovernanceKinds kind = GovernanceKinds.of(object.getApiVersion(), object.getKind());
        if (kind == null || !kind.versions.contains(version(object.getApiVersion()))) {
            throw new Skip("unknown apiVersion " + object.getApiVersion() + " for " + object.getKind());
        }
        JsonNode tree = Json.tree(object);
        return switch (kind) {
            case WORKLOAD -> WorkloadTranslator.translate(tree, type, observedAt);
            case CLUSTER_QUEUE -> QueueObjectTranslator.clusterQueue(tree, type, observedAt);
            case LOCAL_QUEUE -> QueueObjectTranslator.localQueue(tree, type, observedAt);
            case RESOURCE_FLAVOR -> QueueObjectTranslator.resourceFlavor(tree, type, observedAt);
            case VOLCANO_QUEUE -> QueueObjectTranslator.volcanoQueue(tree, type, observedAt);
            case POD_GROUP -> VolcanoTranslator.podGroup(tree, type, observedAt);
            case VOLCANO_JOB -> VolcanoTranslator.job(tree, type, observedAt);
        };
    }

    /** An event's deletion is its expiry, not news. */
    private static void requireLive(WatchEventType type) {
        if (type == WatchEventType.DELETED) {
            throw new Skip("event expired");
        }
    }

    private static String version(String apiVersion) {
        int slash = apiVersion == null ? -1 : apiVersion.indexOf('/');
        return slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
    }
}
