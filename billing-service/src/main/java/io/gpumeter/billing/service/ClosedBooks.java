package io.gpumeter.billing.service;

import io.gpumeter.billing.domain.CapacityLine;
import io.gpumeter.billing.domain.ClosedLine;
import io.gpumeter.billing.domain.ClosedMonth;
import io.gpumeter.billing.domain.FineLine;
import io.gpumeter.billing.domain.IdleEnergy;
import io.gpumeter.billing.domain.RateCardTimeline;
import io.gpumeter.billing.repository.ClosedMonthRepository;
import io.gpumeter.common.problem.ApiProblem;
import io.smallrye.mutiny.Uni;
import io.vertx.pgclient.PgException;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.math.BigDecimal;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Blocking access to the closed months for report building on worker threads; a database failure is a 503.
 */
@ApplicationScoped
public class ClosedBooks {

    private static final Logger LOG = Logger.getLogger(ClosedBooks.class);
    private static final String UNIQUE_VIOLATION = "23505";

    private final ClosedMonthRepository repository;

    public ClosedBooks(ClosedMonthRepository repository) {
        this.repository = repository;
    }

    public Set<String> months() {
        return await(repository::months);
    }

    /** The closed month, or null when it is open. */
    public ClosedMonth find(String month) {
        return await(() -> repository.find(month));
    }

    public List<RateCardTimeline.Stretch> stretches(String month) {
        return await(() -> repository.stretches(month));
    }

    public List<ClosedLine> lines(String month) {
        return await(() -> repository.lines(month));
    }

    public List<FineLine> billed(String month) {
        return await(() -> repository.billed(month));
    }

    public List<CapacityLine> capacity(String month) {
        return await(() -> repository.capacity(month));
    }

    public List<IdleEnergy> idleEnergy(String month) {
        return await(() -> repository.idleEnergy(month));
    }

    /**
     * Stores a closed month.
     *
     * @throws ApiProblem 409 when the month was closed meanwhile, 503 when the database fails
     */
    public void insert(ClosedMonth month, List<ClosedLine> lines, List<BigDecimal> rates,
                       List<CapacityLine> capacity, List<IdleEnergy> idleEnergy) {
        try {
            Await.result(() -> repository.insert(month, lines, rates, capacity, idleEnergy));
        } catch (PgException e) {
            if (UNIQUE_VIOLATION.equals(e.getSqlState())) {
                throw MonthClose.alreadyClosed(month.label());
            }
            throw unavailable(e);
        } catch (RuntimeException e) {
            throw unavailable(e);
        }
    }

    private static <T> T await(Supplier<Uni<T>> query) {
        try {
            return Await.result(query);
        } catch (RuntimeException e) {
            throw unavailable(e);
        }
    }

    private static ApiProblem unavailable(RuntimeException e) {
        LOG.warnf("the closed months cannot be read or written: %s", e.toString());
        return ApiProblem.unavailable("the closed months cannot be read from the billing database; retry later.");
    }
}
