package dev.planvm.integrations.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HostsTest {

    @Test
    void the_host_of_a_url_is_its_authority_without_user_info() {
        assertThat(Hosts.of("https://api.example.com/v1/items?x=1")).containsExactly("api.example.com");
        assertThat(Hosts.of("http://127.0.0.1:8081/cities/${city}")).containsExactly("127.0.0.1:8081");
        assertThat(Hosts.of("https://bob:pw@api.example.com")).containsExactly("api.example.com");
    }

    @Test
    void a_host_made_of_params_stays_a_template() {
        assertThat(Hosts.of("https://${region}.api.example.com/a/${b}")).containsExactly("${region}.api.example.com");
        assertThat(Hosts.of("${base}/items")).isEmpty();
    }
}
