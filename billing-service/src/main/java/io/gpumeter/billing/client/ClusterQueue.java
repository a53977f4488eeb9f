package io.gpumeter.billing.client;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** How often one ClusterQueue refused admission among the workloads created in a window. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ClusterQueue(String cluster, String name, int workloads, int rejected) {
}
