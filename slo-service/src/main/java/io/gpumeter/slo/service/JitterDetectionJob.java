package io.gpumeter.slo.service;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Instant;

/** Detects jitter over the recent minutes on a schedule; a failed run is logged and the next one covers it again. */
@ApplicationScoped
public class JitterDetectionJob {

    private static final Logger LOG = Logger.getLogger(JitterDetectionJob.class);

    private final JitterService jitter;

    public JitterDetectionJob(JitterService jitter) {
        this.jitter = jitter;
    }

    @Scheduled(every = "{gpumeter.slo.jitter.every}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> detectRecent() {
        return jitter.detectRecent(Instant.now()).replaceWithVoid()
                .onFailure().invoke(e -> LOG.warnf("jitter detection failed: %s", e.getMessage()))
                .onFailure().recoverWithNull();
    }
}
