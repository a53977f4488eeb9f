package io.gpumeter.common.fact;

import java.time.Instant;
import java.util.List;

/**
 * Every pod that existed when a collector's pod watch (re)listed them: a pod the ledger still holds open but that is
 * not in the set was deleted while nobody watched. Natural key: cluster, resourceVersion.
 *
 * @param resourceVersion the list's resourceVersion, newer than every version the list contains
 * @param namespaces      the namespaces the list covered; empty means all
 * @param uids            the uids of the GPU pods in the list
 */
public record LivePodSet(String cluster, String resourceVersion, Instant observedAt, List<String> namespaces,
                         List<String> uids) {

    public LivePodSet {
        namespaces = namespaces == null ? List.of() : List.copyOf(namespaces);
        uids = uids == null ? List.of() : List.copyOf(uids);
    }
}
