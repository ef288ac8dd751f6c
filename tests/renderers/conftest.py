from tests.renderers.picture_orders import fresh_scenes  # noqa: F401  (a fixture the scene tests ask for)
