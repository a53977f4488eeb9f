package io.gpumeter.collector.service;

import java.nio.charset.StandardCharsets;

/**
 * Which collector scrapes which node's exporter when several share them: rendezvous (highest random weight) hashing
 * of the node name over the shard indexes. Every replica decides alone from the name and the shard count — nothing to
 * coordinate — each node has exactly one owner, and growing from n to n + 1 shards moves only the nodes the new shard
 * wins (about 1 in n + 1), so a scale-up does not reshuffle the whole fleet. A node scraped twice while replicas
 * disagree on the count (a rolling change) is still counted once: the ledger stores a card's sample at an instant once.
 */
public final class ScrapeShard {

    private final int shards;
    private final int index;

    public ScrapeShard(int shards, int index) {
        if (shards < 1) {
            throw new IllegalArgumentException("gpumeter.collector.dcgm.shards must be at least 1, got " + shards);
        }
        if (index < 0 || index >= shards) {
            throw new IllegalArgumentException("gpumeter.collector.dcgm.shard-index must be 0.." + (shards - 1)
                    + " for " + shards + " shards, got " + index);
        }
        this.shards = shards;
        this.index = index;
    }

    /** Whether this collector scrapes the node's exporter. */
    public boolean owns(String node) {
        return shards == 1 || owner(node, shards) == index;
    }

    /** The shard that scrapes a node among {@code shards}. */
    public static int owner(String node, int shards) {
        int best = 0;
        long bestWeight = Long.MIN_VALUE;
        for (int i = 0; i < shards; i++) {
            long w = weight(node, i);
            if (w > bestWeight) {
                bestWeight = w;
                best = i;
            }
        }
        return best;
    }

    /** FNV-1a over the name's bytes and the shard index, then a 64-bit finalizer so that near names spread. */
    static long weight(String node, int shard) {
        long h = 0xcbf29ce484222325L;
        for (byte b : node.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        h = (h ^ shard) * 0x100000001b3L;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        return h ^ (h >>> 33);
    }
}
