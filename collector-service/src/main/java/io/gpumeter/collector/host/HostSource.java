package io.gpumeter.collector.host;

/** Where host series come from; each node's series of each source are one track. */
public enum HostSource {
    /** kubelet's cAdvisor endpoint: GPU pods' containers and the pods themselves. */
    CADVISOR,
    /** node-exporter: the GPU node. */
    NODE_EXPORTER
}
