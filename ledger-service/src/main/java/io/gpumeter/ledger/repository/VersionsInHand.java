package io.gpumeter.ledger.repository;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The versions of objects a batch is about to store, kept at hand so that re-deriving those objects reads back only
 * what was stored before the batch: a replay re-derives its pods mostly from facts it has just written, and reading
 * or decoding them from the database again cost more than deriving them.
 * <p>
 * The keys (uid, resource version, event type) and observation times of the versions already stored for the batch's
 * objects are read before the batch is inserted, in its transaction and under its cluster lock: on a first replay
 * that finds almost nothing, where reading them after the insert visited every row just written. A version in hand
 * whose key was not stored before is the one the batch stored. One whose key was stored before is taken from hand
 * only when its observation time matches (to the microsecond the column keeps); otherwise the stored row is read,
 * since the batch's copy was not inserted.
 * <p>
 * The same reading tells which of the batch's versions are new ({@link #insertUnstored}): under the cluster lock nothing
 * else writes the table for the cluster, so those are inserted without asking the database about conflicts.
 */
public final class VersionsInHand<T> {

    private record Held<T>(String uid, VersionKey key, T fact) {
    }

    private final VersionRelation<T> relation;
    /** The batch's versions by uid, then key; the first of a key repeated in the batch is the one inserted. */
    private final Map<String, Map<VersionKey, T>> inHand = new HashMap<>();
    /** What was stored before the batch, by uid, for the batch's uids. */
    private final Map<String, List<KeysBefore.Stored>> storedBefore = new HashMap<>();
    /** The first version of each key, in batch order. */
    private final List<Held<T>> firsts = new ArrayList<>();
    private final Function<T, Instant> observedAt;
    private boolean keysGiven;
    /** The firsts whose keys the relation did not hold, once the keys stored before are given. */
    private List<Held<T>> unstored;

    private VersionsInHand(VersionRelation<T> relation, Function<T, Instant> observedAt) {
        this.relation = relation;
        this.observedAt = observedAt;
    }

    /** Nothing in hand: every version is read as stored. */
    public static <T> VersionsInHand<T> none(VersionRelation<T> relation) {
        return new VersionsInHand<>(relation, t -> null);
    }

    /**
     * Takes a batch into hand and reads the keys of what {@code relation} held for its objects before it; call it
     * before inserting the batch, inside the same transaction.
     */
    public static <T> Uni<VersionsInHand<T>> before(SqlClient db, VersionRelation<T> relation, String cluster, List<T> batch,
                                                    Function<T, String> uid, Function<T, String> resourceVersion,
                                                    Function<T, String> eventType, Function<T, Instant> observedAt) {
        VersionsInHand<T> hand = taken(relation, batch, uid, resourceVersion, eventType, observedAt);
        if (hand.inHand.isEmpty()) {
            return Uni.createFrom().item(hand);
        }
        return relation.keysBefore(db, cluster, hand.inHand.keySet()).map(hand::withKeys);
    }

    /**
     * A batch taken into hand before its transaction opens, reading nothing: grouping tens of thousands of versions
     * by object is work the cluster lock need not wait for. Until {@link #withKeys} gives it the keys stored before
     * (read under the lock), the hand takes every version for new.
     */
    public static <T> VersionsInHand<T> taken(VersionRelation<T> relation, List<T> batch, Function<T, String> uid,
                                              Function<T, String> resourceVersion, Function<T, String> eventType,
                                              Function<T, Instant> observedAt) {
        VersionsInHand<T> hand = new VersionsInHand<>(relation, observedAt);
        for (T fact : batch) {
            String id = uid.apply(fact);
            VersionKey key = new VersionKey(resourceVersion.apply(fact), eventType.apply(fact));
            if (hand.inHand.computeIfAbsent(id, u -> new LinkedHashMap<>()).putIfAbsent(key, fact) == null) {
                hand.firsts.add(new Held<>(id, key, fact));
            }
        }
        return hand;
    }

    /**
     * Gives a hand {@link #taken} the keys of what its relation held for the batch's objects before it, read in the
     * batch's transaction under its cluster lock ({@link PodKeysBefore}), with nothing written to the relation since;
     * once only. They must have been read for every object of the batch.
     */
    public VersionsInHand<T> withKeys(KeysBefore keys) {
        if (keysGiven) {
            throw new IllegalStateException("the keys stored before are given to a hand once");
        }
        keysGiven = true;
        for (String uid : inHand.keySet()) {
            keys.of(uid).ifPresent(stored -> storedBefore.put(uid, stored));
        }
        return this;
    }

    /**
     * Whether no version in hand has a key the relation held before the batch: every one is new, though its object may
     * have older versions stored. A bulk replay's requests carry later versions of pods an earlier request stored, so
     * this, not an empty history, is what tells that the versions stored are all those in hand.
     */
    public boolean everyVersionNew() {
        return unstored().size() == firsts.size();
    }

    /**
     * Inserts the versions the batch stores: the first of each key (uid, resource version, event type) that the table
     * did not hold before the batch, in batch order, {@link Chunks#ROWS} to a statement with the slices overlapped on
     * the caller's connection, each slice's {@code parameters} built ahead of its turn on worker threads
     * ({@link Chunks#overlapped(List, Function, Function, java.util.concurrent.Executor)}) and then run by
     * {@code insert}. Answers how many were stored and for which uids; a batch sent again stores none.
     */
    public Uni<Inserted> insertUnstored(Function<List<T>, Tuple> parameters, Function<Tuple, Uni<Void>> insert) {
        return insertUnstored(fact -> false, parameters, insert);
    }

    /**
     * As {@link #insertUnstored(Function, Function)}, where the versions {@code storedElsewhere} answers for were
     * stored by the caller in another row (a pod version carrying its governance view): they count as stored, and are
     * not inserted.
     */
    public Uni<Inserted> insertUnstored(Predicate<T> storedElsewhere, Function<List<T>, Tuple> parameters,
                                        Function<Tuple, Uni<Void>> insert) {
        List<Held<T>> unstored = unstored();
        if (unstored.isEmpty()) {
            return Uni.createFrom().item(Inserted.NONE);
        }
        Set<String> uids = new LinkedHashSet<>();
        unstored.forEach(held -> uids.add(held.uid()));
        List<T> facts = unstored.stream().map(Held::fact).filter(storedElsewhere.negate()).toList();
        return Chunks.overlapped(Chunks.of(facts, Chunks.ROWS), parameters, insert, Infrastructure.getDefaultWorkerPool())
                .map(ignored -> new Inserted(unstored.size(), uids));
    }

    /** The versions {@link #insertUnstored} stores: the first of each key the relation did not hold, in batch order. */
    public List<T> unstoredFacts() {
        return unstored().stream().map(Held::fact).toList();
    }

    private List<Held<T>> unstored() {
        if (storedBefore.isEmpty()) {
            return firsts;
        }
        if (unstored == null) {
            unstored = unstoredOfStoredBefore();
        }
        return unstored;
    }

    private List<Held<T>> unstoredOfStoredBefore() {
        Map<String, Set<VersionKey>> storedKeys = new HashMap<>();
        storedBefore.forEach((uid, versions) -> storedKeys.put(uid,
                versions.stream().map(v -> new VersionKey(v.resourceVersion(), v.eventType())).collect(Collectors.toSet())));
        List<Held<T>> out = new ArrayList<>();
        for (Held<T> held : firsts) {
            if (!storedKeys.getOrDefault(held.uid(), Set.of()).contains(held.key())) {
                out.add(held);
            }
        }
        return out;
    }

    /**
     * The versions in hand of an object every stored version of which is in hand: one the table held nothing of
     * before the batch. Empty for any other object, whose stored versions only the table can tell.
     */
    public Collection<T> wholeInHand(String uid) {
        Map<VersionKey, T> held = inHand.get(uid);
        return held == null || storedBefore.containsKey(uid) ? List.of() : held.values();
    }

    /** Every stored version of these objects, from hand where it can. */
    public Uni<List<T>> read(SqlClient db, String cluster, Collection<String> uids) {
        List<T> found = new ArrayList<>();
        List<String> unheld = new ArrayList<>();
        List<String> missingUid = new ArrayList<>();
        List<String> missingRevision = new ArrayList<>();
        List<String> missingType = new ArrayList<>();
        for (String uid : uids) {
            Map<VersionKey, T> held = inHand.get(uid);
            if (held == null) {
                unheld.add(uid);
                continue;
            }
            Map<VersionKey, T> insertedNow = new LinkedHashMap<>(held);
            for (KeysBefore.Stored stored : storedBefore.getOrDefault(uid, List.of())) {
                VersionKey key = new VersionKey(stored.resourceVersion(), stored.eventType());
                T copy = insertedNow.remove(key);
                Instant at = copy == null ? null : observedAt.apply(copy);
                if (at != null && storedAs(at).equals(stored.observedAt())) {
                    found.add(copy);
                } else {
                    missingUid.add(uid);
                    missingRevision.add(stored.resourceVersion());
                    missingType.add(stored.eventType());
                }
            }
            found.addAll(insertedNow.values());
        }
        Uni<List<T>> withUnheld = unheld.isEmpty() ? Uni.createFrom().item(found)
                : relation.readAll(db, cluster, unheld, found);
        if (missingUid.isEmpty()) {
            return withUnheld;
        }
        return withUnheld.chain(() -> relation.readVersions(db, cluster, missingUid, missingRevision, missingType, found));
    }

    /**
     * An instant as its timestamptz column holds it: to the microsecond. A collector's clock reads nanoseconds, so
     * comparing the instant in hand with the stored one as they are would never match, and every version just stored
     * would be read back and decoded again.
     */
    static Instant storedAs(Instant at) {
        return at.truncatedTo(ChronoUnit.MICROS);
    }

    /** A version of one object: hashed from the hashes its strings keep, not joined into a string per version. */
    private record VersionKey(String resourceVersion, String eventType) {
    }
}
