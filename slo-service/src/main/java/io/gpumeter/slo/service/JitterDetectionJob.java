package io.gpumeter.slo.service;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Clock;

/** Detects jitter over the recent minutes on a schedule; a failed run is logged and the next one covers it again. */
@ApplicationScoped
public class JitterDetectionJob {

    private static final Logger LOG = Logger.getLogger(JitterDetectionJob.class);

    private final JitterService jitter;

    private final Clock clock;

    public JitterDetectionJob(JitterService jitter, Clock clock) {
        this.clock = clock;
        this.jitter = jitter;
    }

    @Scheduled(every = "{gpumeter.slo.jitter.every}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> detectRecent() {
        return jitter.detectRecent(clock.instant()).replaceWithVoid()
                .onFailure().invoke(e -> LOG.warnf("jitter detection failed: %s", e.getMessage()))
                .onFailure().recoverWithNull();
    }
}
