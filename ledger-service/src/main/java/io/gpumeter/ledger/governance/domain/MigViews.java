package io.gpumeter.ledger.governance.domain;

import io.gpumeter.ledger.inventory.domain.MigProfile;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What {@link MigConsistency} reads a node's MIG views with: the node's versions in order and the latest at an
 * instant, its allocatable MIG devices by profile and whether they, or the instances dcgm-exporter reports, agree with
 * a layout; and the words an incident tells them in.
 */
final class MigViews {

    static final String COUNT = "nvidia.com/gpu.count";
    static final String PRODUCT = "nvidia.com/gpu.product";
    static final String GPU = "nvidia.com/gpu";

    private MigViews() {
    }

    /**
     * The allocatable MIG devices by profile: the mixed strategy's {@code nvidia.com/mig-<profile>} resources, or with
     * the single strategy {@code nvidia.com/gpu} of the profile GFD's product label names (none: MIG is off).
     */
    static Map<String, Integer> allocatable(Map<String, Long> resources, Map<String, String> labels, String strategy) {
        Map<String, Integer> out = new TreeMap<>();
        if ("single".equals(strategy)) {
            Optional<MigProfile> profile = profileOfProduct(labels.get(PRODUCT));
            long n = resources.getOrDefault(GPU, 0L);
            if (profile.isPresent() && n > 0) {
                out.put(profile.get().raw(), (int) Math.min(Integer.MAX_VALUE, n));
            }
            return out;
        }
        resources.forEach((resource, n) -> {
            if (n != null && n > 0) {
                profileOfResource(resource).ifPresent(p -> out.merge(p.raw(), (int) Math.min(Integer.MAX_VALUE, n),
                        Integer::sum));
            }
        });
        return out;
    }

    /**
     * With the single strategy the node's count of MIG devices must be a whole number of cards of one of the layout's
     * single-profile variants (GFD's card count then counts MIG devices, not cards); with the mixed strategy the totals
     * must be one variant times the card count GFD labels. Null when it cannot be judged.
     */
    static Boolean allocatableAgrees(MigLayout layout, Map<String, Integer> seen, Map<String, String> labels,
                                             String strategy) {
        Optional<List<Map<String, Integer>>> perCard = layout.perCard();
        if ("single".equals(strategy)) {
            if (perCard.isEmpty()) {
                return layout.exactTotals().map(seen::equals).orElse(null);
            }
            for (Map<String, Integer> v : perCard.get()) {
                if (v.isEmpty() && seen.isEmpty()) {
                    return true;
                }
                if (v.size() == 1 && seen.size() == 1 && v.keySet().equals(seen.keySet())) {
                    int each = v.values().iterator().next();
                    int total = seen.values().iterator().next();
                    if (total % each == 0) {
                        return true;
                    }
                }
            }
            return false;
        }
        Optional<Map<String, Integer>> exact = layout.exactTotals();
        if (exact.isPresent()) {
            return exact.get().equals(seen);
        }
        Integer cards = cards(labels.get(COUNT));
        return cards == null ? null : layout.totalsOn(cards).contains(seen);
    }

    /** Each card reporting instances holds one of the layout's per-card variants; else the node's exact totals. */
    static Boolean instancesAgree(MigLayout layout, Map<String, Map<String, Integer>> seen) {
        Optional<List<Map<String, Integer>>> perCard = layout.perCard();
        if (perCard.isPresent()) {
            return seen.values().stream().allMatch(perCard.get()::contains);
        }
        Optional<Map<String, Integer>> exact = layout.exactTotals();
        if (exact.isEmpty()) {
            return null;
        }
        Map<String, Integer> totals = new TreeMap<>();
        seen.values().forEach(card -> card.forEach((p, n) -> totals.merge(p, n, Integer::sum)));
        return exact.get().equals(totals);
    }

    static String canonical(String profile) {
        try {
            return MigProfile.parse(profile).raw();
        } catch (IllegalArgumentException e) {
            return profile.strip(); // compared as the exporter spelled it: a layout never names such a profile
        }
    }

    private static Optional<MigProfile> profileOfResource(String resource) {
        try {
            return MigProfile.fromResourceName(resource);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static Optional<MigProfile> profileOfProduct(String product) {
        try {
            return MigProfile.fromProductLabel(product);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static Integer cards(String count) {
        if (count == null || !count.strip().matches("[0-9]{1,4}")) {
            return null;
        }
        int n = Integer.parseInt(count.strip());
        return n > 0 ? n : null;
    }

    /** "expected … against seen …", what an incident says. */
    static String evidence(MigConsistency.View v) {
        StringBuilder out = new StringBuilder("nvidia.com/mig.config '").append(v.layout()).append("' expects ")
                .append(v.perCard() ? "per card " : "on the node ").append(variants(v.expected()))
                .append(" against seen:");
        if (v.allocatable() != null) {
            out.append(" allocatable ").append(devices(v.allocatable()))
                    .append(v.strategy() == null ? "" : " (" + v.strategy() + " strategy)");
        }
        if (v.instances() != null) {
            out.append(v.allocatable() != null ? ";" : "").append(" dcgm-exporter instances ");
            List<String> cards = new ArrayList<>();
            v.instances().forEach((card, d) -> cards.add(card + " " + devices(d)));
            out.append(String.join(", ", cards));
        }
        return out.toString();
    }

    private static String variants(List<Map<String, Integer>> variants) {
        List<String> out = new ArrayList<>();
        variants.forEach(v -> out.add(devices(v)));
        return out.isEmpty() ? "nothing known" : String.join(" or ", out);
    }

    static String devices(Map<String, Integer> d) {
        if (d.isEmpty()) {
            return "no MIG device";
        }
        List<String> out = new ArrayList<>();
        d.forEach((p, n) -> out.add(n + "x" + p));
        return String.join("+", out);
    }


    static List<MigNodeVersion> ordered(List<MigNodeVersion> versions) {
        return versions.stream().sorted(Comparator.comparing(MigNodeVersion::at).thenComparingLong(MigNodeVersion::order))
                .toList();
    }

    static MigNodeVersion latest(List<MigNodeVersion> ordered, Instant t) {
        MigNodeVersion out = null;
        for (MigNodeVersion v : ordered) {
            if (v.at().isAfter(t)) {
                break;
            }
            out = v;
        }
        return out;
    }

    static MigNodeVersion latestStatus(List<MigNodeVersion> ordered, Instant t) {
        MigNodeVersion out = null;
        for (MigNodeVersion v : ordered) {
            if (v.at().isAfter(t)) {
                break;
            }
            if (v.status()) {
                out = v.deleted() ? null : v;
            }
        }
        return out;
    }
}
