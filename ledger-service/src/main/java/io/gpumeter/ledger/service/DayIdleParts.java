package io.gpumeter.ledger.service;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.ledger.hours.domain.GroupDimension;
import io.gpumeter.ledger.hours.domain.TimeBucket;
import io.gpumeter.ledger.idle.domain.IdleCauseThresholds;
import io.gpumeter.ledger.idle.domain.IdleCauses;
import io.gpumeter.ledger.repository.IdleRepository;
import io.gpumeter.ledger.repository.IdleRepository.AllocatedPart;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The idle split's allocated parts of a window, UTC day by UTC day through the day books (BookedDays). A part is
 * card-seconds, so a card's parts of its days add up to its part of the window (IdleGroups adds them).
 */
@ApplicationScoped
public class DayIdleParts {

    /** The report the day books of this class hold. */
    static final String KIND = "idle-parts";

    private final IdleRepository idle;
    private final BookedDays booked;

    public DayIdleParts(IdleRepository idle, BookedDays booked) {
        this.idle = idle;
        this.booked = booked;
    }

    /**
     * As {@link IdleRepository#allocated}, over [from, cap) with cap no later than {@code now}; grouped by tenant or
     * pod, each day's parts of one holder are added up first (IdleGroups keys those by the holder alone), so a day of
     * a 10,000-GPU fleet is its tenants' few rows rather than a row per card and tenant.
     */
    public Uni<List<AllocatedPart>> allocated(Instant from, Instant cap, String cluster, double busyThreshold,
                                              IdleGroups.By group, IdleCauseThresholds thresholds, Instant now) {
        boolean perPod = group == IdleGroups.By.POD;
        List<TimeBucket> days = TimeBucket.over(new TimeWindow(from, cap), GroupDimension.DAY, ZoneOffset.UTC);
        BookedDays.Report<List<AllocatedPart>> report = new BookedDays.Report<>() {
            @Override
            public Uni<Map<Instant, List<AllocatedPart>>> compute(List<TimeBucket> run) {
                // A day at a time: the split's intervals are cut at the window's ends, so a day read alone is the day.
                return Multi.createFrom().iterable(run)
                        .onItem().transformToUniAndConcatenate(d -> idle.allocated(d.start(), d.end(), cluster,
                                busyThreshold, perPod, thresholds).map(parts -> Map.entry(d.start(),
                                        group.byHolder() ? byHolder(parts) : parts)))
                        .collect().in(HashMap<Instant, List<AllocatedPart>>::new, (m, e) -> m.put(e.getKey(), e.getValue()));
            }

            @Override
            public JsonArray encode(List<AllocatedPart> parts) {
                JsonArray rows = new JsonArray();
                for (AllocatedPart p : parts) {
                    rows.add(new JsonArray().add(p.cluster()).add(p.gpuUuid()).add(p.tenant()).add(p.namespace())
                            .add(p.pod()).add(text(p.busy())).add(text(p.notBusy())).add(text(p.unmeasured()))
                            .add(text(p.causes().cpuSaturated())).add(text(p.causes().ioWait()))
                            .add(text(p.causes().network())).add(text(p.causes().hostCovered())).add(p.metrics()));
                }
                return rows;
            }

            @Override
            public List<AllocatedPart> decode(JsonArray rows) {
                List<AllocatedPart> out = new ArrayList<>(rows.size());
                for (int i = 0; i < rows.size(); i++) {
                    JsonArray r = rows.getJsonArray(i);
                    out.add(new AllocatedPart(r.getString(0), r.getString(1), r.getString(2), r.getString(3),
                            r.getString(4), number(r, 5), number(r, 6), number(r, 7),
                            new IdleCauses(number(r, 8), number(r, 9), number(r, 10), number(r, 11)), r.getString(12)));
                }
                return out;
            }
        };
        String shape = new JsonArray().add(cluster).add(group.label()).add(busyThreshold).add(thresholds.toString()).encode();
        return booked.read(KIND, shape, days, ZoneOffset.UTC, now, report)
                .map(perDay -> perDay.stream().flatMap(List::stream).toList());
    }

    /**
     * The parts of each holder (tenant, or pod of a tenant) added up, on the first of its cards (in cluster and card
     * order): grouped by holder, a part's card says only that the card was there, and each of them was.
     */
    static List<AllocatedPart> byHolder(List<AllocatedPart> parts) {
        Map<List<String>, AllocatedPart> sums = new LinkedHashMap<>();
        List<AllocatedPart> ordered = new ArrayList<>(parts);
        ordered.sort(Comparator.comparing(AllocatedPart::cluster).thenComparing(AllocatedPart::gpuUuid));
        for (AllocatedPart p : ordered) {
            List<String> holder = Arrays.asList(p.tenant(), p.namespace(), p.pod(), p.namespace() == null ? null : p.cluster());
            sums.merge(holder, p, DayIdleParts::plus);
        }
        return List.copyOf(sums.values());
    }

    private static AllocatedPart plus(AllocatedPart a, AllocatedPart b) {
        return new AllocatedPart(a.cluster(), a.gpuUuid(), a.tenant(), a.namespace(), a.pod(), a.busy().add(b.busy()),
                a.notBusy().add(b.notBusy()), a.unmeasured().add(b.unmeasured()), a.causes().plus(b.causes()),
                metrics(a.metrics(), b.metrics()));
    }

    private static String metrics(String a, String b) {
        TreeSet<String> all = new TreeSet<>();
        for (String list : new String[]{a, b}) {
            if (list != null && !list.isBlank()) {
                all.addAll(Arrays.asList(list.split(",")));
            }
        }
        return all.isEmpty() ? null : String.join(",", all);
    }

    /**
     * A part's seconds without their trailing zeros: the split adds them up and rounds the sums to the millisecond, so
     * the scale PostgreSQL gave them decides nothing, and a day of 18,000 parts at 10,000 GPUs is half the size.
     */
    private static String text(BigDecimal value) {
        return value == null ? null : value.stripTrailingZeros().toPlainString();
    }

    private static BigDecimal number(JsonArray row, int at) {
        String text = row.getString(at);
        return text == null ? null : new BigDecimal(text);
    }
}
