package dev.berth.manager.ha;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemberAddressesTest {
    @Test
    void namesBecomeAddressesAndAddressesStayAsTheyAre() {
        assertThat(MemberAddresses.resolve(List.of("localhost:5701", "127.0.0.1:5702", "10.0.0.1", "127.0.0.1:5901-5910"),
                Duration.ZERO)).containsExactly("127.0.0.1:5701", "127.0.0.1:5702", "10.0.0.1", "127.0.0.1:5901-5910");
    }

    @Test
    void aNameThatNeverResolvesIsPassedOnAsItIsOnceTheWaitRunsOut() {
        assertThat(MemberAddresses.resolve(List.of("no-such-replica.invalid:5701"), Duration.ofMillis(300)))
                .containsExactly("no-such-replica.invalid:5701");
    }
}
