package io.gpumeter.collector.kubernetes;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.gpumeter.common.fact.NamespaceFact;
import io.gpumeter.common.fact.WatchEventType;

import java.time.Instant;

/** Reduces a Namespace to its labels and when each was set. */
public final class NamespaceTranslator {

    private NamespaceTranslator() {
    }

    public static NamespaceFact translate(Namespace namespace, WatchEventType type, Instant observedAt) {
        ObjectMeta meta = Objects.metadata(namespace.getMetadata(), false);
        return new NamespaceFact(meta.getName(), meta.getUid(), meta.getResourceVersion(), type, observedAt,
                meta.getLabels(), ManagedFieldTimes.labelTimes(meta.getManagedFields()));
    }
}
