package io.gpumeter.collector.config;

import io.gpumeter.collector.kubernetes.GpuStack;
import io.gpumeter.collector.kubernetes.NodeStatusSettings;
import io.gpumeter.collector.kubernetes.StackComponents;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import java.util.List;
import java.util.Set;

/**
 * The {@link GpuStack} every event is read against, built once from configuration. A component whose value is not a
 * workload fails the start, naming the setting: a misspelt component would otherwise never be seen.
 */
@ApplicationScoped
public class GpuStackConfiguration {

    @Produces
    @Singleton
    public GpuStack gpuStack(CollectorConfig config) {
        return new GpuStack(StackComponents.parse(config.stack().components()),
                new NodeStatusSettings(config.nodeStatus().resources().orElse(List.of()),
                        Set.copyOf(config.nodeStatus().ignoredLabels().orElse(List.of()))));
    }
}
