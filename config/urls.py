"""URL routes: the admin, the REST API under /api/v1/, and the web pages."""

from django.contrib import admin
from django.urls import path

urlpatterns = [
    path("admin/", admin.site.urls),
]
