package dev.berth.manager.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.manager.clusters.ClusterEvents;
import dev.berth.protocol.crd.RemoteWorkload;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterEventsLinkTest {
    private final List<String> heard = new ArrayList<>();

    private final ClusterEvents dispatcher = new ClusterEvents() {
        @Override
        public void connectionChanged(String cluster, boolean connected, String message) {
            heard.add("connection " + cluster + " " + connected);
        }

        @Override
        public void capacityChanged(String cluster) {
            heard.add("capacity " + cluster);
        }

        @Override
        public void attemptsListed(String cluster, List<RemoteWorkload> attempts) {
            heard.add("listed " + cluster + " " + attempts.size());
        }

        @Override
        public void operatorMarksChanged(String cluster, boolean cordoned, boolean draining, boolean wasCordoned, boolean wasDraining) {
            heard.add("marks " + cluster + " cordoned=" + cordoned + " draining=" + draining);
        }
    };

    @Test
    void eventsBeforeTheDispatcherIsRegisteredAreDroppedThenEveryEventReachesIt() {
        ClusterEventsLink link = new ClusterEventsLink();
        link.capacityChanged("early");

        link.register(dispatcher);
        link.connectionChanged("east", true, "connected");
        link.capacityChanged("east");
        link.attemptsListed("east", List.of(new RemoteWorkload()));
        link.operatorMarksChanged("east", true, false, false, false);

        assertThat(heard).containsExactly("connection east true", "capacity east", "listed east 1",
                "marks east cordoned=true draining=false");
    }

    @Test
    void theDispatcherIsRegisteredOnce() {
        ClusterEventsLink link = new ClusterEventsLink();
        link.register(dispatcher);

        assertThatThrownBy(() -> link.register(dispatcher)).isInstanceOf(IllegalStateException.class);
    }
}
