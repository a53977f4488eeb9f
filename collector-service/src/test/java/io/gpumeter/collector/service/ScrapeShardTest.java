package io.gpumeter.collector.service;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ScrapeShardTest {

    private static final List<String> NODES = IntStream.range(0, 1000).mapToObj(i -> "gpu-node-" + i).toList();

    @Test
    void everyNodeHasExactlyOneOwnerAmongTheShards() {
        for (int shards = 1; shards <= 5; shards++) {
            for (String node : NODES) {
                int owners = 0;
                for (int i = 0; i < shards; i++) {
                    owners += new ScrapeShard(shards, i).owns(node) ? 1 : 0;
                }
                assertEquals(1, owners, node + " among " + shards + " shards");
            }
        }
    }

    @Test
    void theNodesSpreadEvenly() {
        int[] owned = new int[4];
        NODES.forEach(n -> owned[ScrapeShard.owner(n, 4)]++);
        for (int count : owned) {
            // 250 expected; a binomial's standard deviation here is about 14, so 200..300 is over 3.5 of them
            assertTrue(count >= 200 && count <= 300, "shard counts " + java.util.Arrays.toString(owned));
        }
    }

    @Test
    void aThirdShardTakesNodesOnlyForItself() {
        List<String> moved = new ArrayList<>();
        for (String node : NODES) {
            int before = ScrapeShard.owner(node, 2);
            int after = ScrapeShard.owner(node, 3);
            if (before != after) {
                assertEquals(2, after, node + " moved from " + before + " to another old shard");
                moved.add(node);
            }
        }
        // about a third of the nodes move, all to the new shard; the rest stay where they were
        assertTrue(moved.size() > 250 && moved.size() < 420, moved.size() + " nodes moved");
    }

    @Test
    void oneShardOwnsEverything() {
        assertTrue(NODES.stream().allMatch(new ScrapeShard(1, 0)::owns));
    }

    @Test
    void anIndexOutsideTheShardsIsRefusedNamingTheSetting() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ScrapeShard(2, 2));
        assertTrue(e.getMessage().contains("gpumeter.collector.dcgm.shard-index"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ScrapeShard(0, 0));
        assertThrows(IllegalArgumentException.class, () -> new ScrapeShard(3, -1));
    }
}
