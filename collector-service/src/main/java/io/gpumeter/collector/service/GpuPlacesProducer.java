package io.gpumeter.collector.service;

import io.gpumeter.collector.config.CollectorConfig;
import io.gpumeter.collector.host.GpuPlaces;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** The one register of GPU pods and nodes the watch, the replays and the usage pushes fill and host intake reads. */
public class GpuPlacesProducer {

    @Produces
    @Singleton
    GpuPlaces places(CollectorConfig config) {
        return new GpuPlaces(config.host().grace().toMillis());
    }
}
