import os, json, cProfile, pstats, django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import setup_test_environment
from bench.standings import build
from games.services.event_file import event_file_export, event_file_import
setup_test_environment()
old = connection.creation.create_test_db(verbosity=0)
try:
    t = build(200, 7)
    u = get_user_model().objects.create_user("imp", password="x-pass-123")
    doc = json.loads(json.dumps(event_file_export(t)))
    pr = cProfile.Profile(); pr.enable()
    event_file_import(by=u, document=doc, slug="copy")
    pr.disable(); pstats.Stats(pr).sort_stats("cumulative").print_stats("perf-jobs|bulk_create|bulk_update|execute", 30)
finally:
    connection.creation.destroy_test_db(old, verbosity=0)
